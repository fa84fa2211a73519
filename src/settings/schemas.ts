import { type Static, Type } from '@sinclair/typebox';

const fields = {
  enabled: Type.Optional(Type.Boolean({ description: 'Sign-in through OpenID Connect is on' })),
  discoverUrl: Type.Optional(
    Type.String({ maxLength: 2000, description: 'The http(s) URL of the discovery document' }),
  ),
  clientId: Type.String({ maxLength: 1000 }),
  secret: Type.String({ maxLength: 1000, description: 'The client secret; shown to Admins only' }),
  autoCreate: Type.Optional(Type.Boolean({ description: 'Create users on their first sign-in' })),
  enableSingleSignOut: Type.Optional(Type.Boolean()),
  defaultRootRole: Type.Optional(
    Type.Union([Type.Literal('Viewer'), Type.Literal('Editor'), Type.Literal('Admin')], {
      description: 'The root role of users created on sign-in',
    }),
  ),
  emailDomains: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        'Comma-separated: sign-in links people to users, or creates users, only for e-mail addresses at these domains',
    }),
  ),
  requireEmailVerified: Type.Optional(
    Type.Boolean({
      description:
        'Link or create users only for addresses the provider says are verified (`email_verified: true`); ' +
        'true unless set. Off, a missing claim is accepted, one saying false still refused.',
    }),
  ),
  acrValues: Type.Optional(Type.String({ maxLength: 2000, description: 'Space-separated' })),
  idTokenSigningAlgorithm: Type.Optional(
    Type.Union([Type.Literal('RS256'), Type.Literal('RS384'), Type.Literal('RS512')]),
  ),
};

export const OidcSettingsBody = Type.Object(fields);
export type OidcSettings = Static<typeof OidcSettingsBody>;

/** As stored; `{ enabled: false }` before the first save. */
export const OidcSettingsSchema = Type.Object({
  ...fields,
  clientId: Type.Optional(fields.clientId),
  secret: Type.Optional(fields.secret),
});

/** Unleash's `passwordAuthSchema`: whether signing in with a username and password is turned off. */
export const SimpleSettingsBody = Type.Object({
  disabled: Type.Boolean({ description: 'Signing in with a username and password is turned off' }),
});
export type SimpleSettings = Static<typeof SimpleSettingsBody>;
