import { Type } from '@sinclair/typebox';
import { INT4_MAX, Nullable, Timestamp } from '../http/schemas.js';

export const AppNameParams = Type.Object({ appName: Type.String({ minLength: 1, maxLength: 255 }) });

const Text = Type.String({ maxLength: 1000 });

/** E13: every field optional; a body `appName` other than the path's is ignored. */
export const CreateApplicationBody = Type.Object({
  appName: Type.Optional(Type.String()),
  sdkVersion: Type.Optional(Type.String({ maxLength: 255, description: '<identifier>:<version>' })),
  strategies: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 })),
  url: Type.Optional(Text),
  color: Type.Optional(Type.String({ maxLength: 100 })),
  icon: Type.Optional(Text),
  description: Type.Optional(Text),
});

const ApplicationFields = {
  appName: Type.String(),
  description: Nullable(Type.String()),
  url: Nullable(Type.String()),
  color: Nullable(Type.String()),
  icon: Nullable(Type.String()),
  sdkVersion: Nullable(Type.String()),
  strategies: Type.Array(Type.String()),
  createdAt: Timestamp,
};

/** As Unleash pages it: a name search, a page of at most 1,000, sorted by name or creation. */
export const ApplicationListQuery = Type.Object({
  query: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the name, any case' })),
  offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 1000, description: 'How many a page holds' }),
  sortBy: Type.Union([Type.Literal('appName'), Type.Literal('createdAt')], { default: 'appName' }),
  sortOrder: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' }),
});

export const ApplicationList = Type.Object({
  applications: Type.Array(Type.Object(ApplicationFields)),
  total: Type.Integer({ description: 'How many match the query, on every page' }),
});

export const ApplicationDetails = Type.Object({
  ...ApplicationFields,
  instances: Type.Array(
    Type.Object({
      appName: Type.String(),
      instanceId: Type.String(),
      environment: Type.String(),
      sdkVersion: Nullable(Type.String()),
      clientIp: Nullable(Type.String()),
      started: Nullable(Timestamp),
      lastSeen: Timestamp,
      createdAt: Timestamp,
    }),
  ),
  seenToggles: Type.Array(Type.String()),
  links: Type.Object({ self: Type.String() }),
});

/**
 * An SDK reports the strategy types it knows: a few built-in ones and the custom ones of its
 * application. Stored for each application, so bounded well below what a public token could
 * otherwise make the server keep.
 */
export const MAX_REPORTED_STRATEGIES = 50;
// PostgreSQL cannot store NUL in text: a name holding one could never be written.
const NO_NUL = '^[^\\u0000]*$';
const SdkName = (minLength: number) => Type.String({ minLength, maxLength: 255, pattern: NO_NUL });
const MAX_STRATEGY_NAME = 100;

export const ReportedStrategies = Type.Array(Type.String({ maxLength: MAX_STRATEGY_NAME, pattern: NO_NUL }), {
  maxItems: MAX_REPORTED_STRATEGIES,
});

/** What SDKs send when they start; fields this server does not use are ignored. */
export const RegisterBody = Type.Object({
  appName: SdkName(1),
  instanceId: Type.Optional(SdkName(0)),
  sdkVersion: Type.Optional(Type.String({ maxLength: 100, pattern: NO_NUL })),
  strategies: Type.Optional(ReportedStrategies),
  started: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Integer()])),
  interval: Type.Optional(Type.Integer({ minimum: 0, maximum: INT4_MAX })),
  environment: Type.Optional(Type.String({ maxLength: 100 })),
});
