import { Type } from '@sinclair/typebox';
import { ReportedStrategies } from '../applications/schemas.js';
import { INT4_MAX } from '../http/schemas.js';
import { ImpactMetricsField } from '../impact-metrics/schemas.js';
import { Count, Name, NameKey } from '../metrics/schemas.js';

/** As many tokens as an Edge holds; each one is looked up, so the list is bounded. */
const MAX_TOKENS = 1000;
/** An Edge sends its metrics in chunks well below the 1 MiB body limit; a bound for each list. */
const MAX_APPLICATIONS = 1000;
const MAX_METRICS = 10_000;
/** The end of the year 9999, in milliseconds since 1970: the last instant a date-time string can name. */
const DATE_MAX_MS = 253_402_300_799_999;

export const TokenList = Type.Object({
  tokens: Type.Array(Type.String({ maxLength: 1000 }), {
    maxItems: MAX_TOKENS,
    description: 'API token secrets, such as default:development.<hex>',
  }),
});

export const ValidatedTokens = Type.Object({
  tokens: Type.Array(
    Type.Object({
      token: Type.String(),
      type: Type.Union([Type.Literal('client'), Type.Literal('frontend')]),
      projects: Type.Array(Type.String(), { description: '["*"] for every project' }),
      environment: Type.String(),
    }),
  ),
});

/** A date-time, or milliseconds since 1970. */
const DateOrMillis = Type.Union([
  Type.String({ format: 'date-time' }),
  Type.Integer({ minimum: 0, maximum: DATE_MAX_MS }),
]);

const Application = Type.Object({
  appName: Name(1),
  instanceId: Name(1),
  environment: Type.String({ maxLength: 255 }),
  sdkVersion: Type.Optional(Name(0)),
  // Edge relays both kinds of SDK; one it cannot tell apart is taken for a backend SDK.
  sdkType: Type.Optional(Type.Union([Type.Literal('backend'), Type.Literal('frontend'), Type.Null()])),
  strategies: Type.Optional(ReportedStrategies),
  started: Type.Optional(DateOrMillis),
  interval: Type.Optional(Type.Integer({ minimum: 0, maximum: INT4_MAX })),
});

const Metric = Type.Object({
  featureName: Name(1),
  appName: Name(1),
  environment: Type.String({ maxLength: 255 }),
  timestamp: Type.Optional(DateOrMillis),
  yes: Type.Optional(Count),
  no: Type.Optional(Count),
  variants: Type.Optional(Type.Record(NameKey(0), Count, { additionalProperties: false })),
});

/** What Edge sends: the SDKs that registered with it and what they counted, hour by hour. */
export const BulkMetricsBody = Type.Object({
  applications: Type.Array(Application, { maxItems: MAX_APPLICATIONS }),
  metrics: Type.Array(Metric, { maxItems: MAX_METRICS }),
  impactMetrics: ImpactMetricsField,
});
