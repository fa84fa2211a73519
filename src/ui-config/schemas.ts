import { Type } from '@sinclair/typebox';

/** The most origins one list may hold; each is checked against every cross-origin request. */
const MAX_ORIGINS = 1000;

export const SetCorsBody = Type.Object(
  {
    frontendApiOrigins: Type.Array(
      Type.String({ minLength: 1, maxLength: 2000, description: '* or scheme://host[:port]' }),
      {
        maxItems: MAX_ORIGINS,
        description:
          'The origins whose pages may call /api/frontend, /api/client and /edge (CORS); * for any, [] for none',
      },
    ),
  },
  { additionalProperties: false },
);

/** Unleash's `uiConfigSchema`, with the fields that mean something here. */
export const UiConfig = Type.Object({
  version: Type.String({ description: "Flagpole's version" }),
  environment: Type.String({ description: 'What kind of instance this is' }),
  unleashUrl: Type.String({ description: 'UNLEASH_URL: the public address of this server' }),
  baseUriPath: Type.String({ description: 'The path Flagpole answers under: always the root' }),
  authenticationType: Type.String({
    description:
      'How users sign in: `open-source`, with a username or email and a password (and OpenID Connect once set up)',
  }),
  disablePasswordAuth: Type.Boolean(),
  emailEnabled: Type.Boolean({ description: 'Whether this server sends email' }),
  maintenanceMode: Type.Boolean(),
  prometheusAPIAvailable: Type.Boolean(),
  oidcConfiguredThroughEnv: Type.Boolean(),
  frontendApiOrigins: Type.Array(Type.String()),
  flags: Type.Record(Type.String(), Type.Boolean(), {
    description: "Unleash's experimental switches: Flagpole has none",
  }),
  impactMetrics: Type.Union(
    ['disabled', 'unconfigured', 'internal', 'external', 'full'].map((v) => Type.Literal(v)),
    {
      description:
        'Where impact metrics come from: `internal` (what SDKs send, stored here), `full` (and an external Prometheus)',
    },
  ),
  versionInfo: Type.Object({
    current: Type.Object({ oss: Type.Optional(Type.String()), enterprise: Type.Optional(Type.String()) }),
    latest: Type.Object({ oss: Type.Optional(Type.String()), enterprise: Type.Optional(Type.String()) }),
    isLatest: Type.Boolean(),
    instanceId: Type.Optional(Type.String()),
  }),
});

/** Unleash's answer about what it reports home; Flagpole reports nothing. */
export const TelemetrySettings = Type.Object({
  versionInfoCollectionEnabled: Type.Boolean({
    description: 'Whether the server asks upstream for newer versions',
  }),
  featureInfoCollectionEnabled: Type.Boolean({
    description: 'Whether the server sends usage statistics upstream',
  }),
});
