import { type Static, Type } from '@sinclair/typebox';
import { ImpactMetricsField } from '../impact-metrics/schemas.js';

export const Count = Type.Integer({
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'Counts above a trillion are taken as a trillion',
});

// PostgreSQL cannot store NUL in text: a name holding one could never be written.
const NO_NUL = '[^\\u0000]';
export const Name = (minLength: number) =>
  Type.String({ minLength, maxLength: 255, pattern: `^${NO_NUL}*$`, description: 'Without NUL characters' });

/** Names as keys of a record: one that does not match the pattern is refused (no other keys allowed). */
export const NameKey = (minLength: number) => Type.String({ pattern: `^${NO_NUL}{${minLength},255}$` });

/**
 * One report's flags and each flag's variants: what an SDK evaluated in one interval. Every
 * distinct name becomes a row to write, so a public token must not send many.
 */
const MAX_TOGGLES = 1000;
const MAX_VARIANTS = 100;

/** One interval's counts: per feature, how often it was on, off, and which variants were given. */
const Bucket = Type.Object({
  start: Type.String({ format: 'date-time' }),
  stop: Type.String({ format: 'date-time' }),
  toggles: Type.Record(
    NameKey(1),
    Type.Object({
      yes: Count,
      no: Count,
      variants: Type.Optional(
        Type.Record(NameKey(0), Count, { maxProperties: MAX_VARIANTS, additionalProperties: false }),
      ),
    }),
    { maxProperties: MAX_TOGGLES, additionalProperties: false },
  ),
});

/** What SDKs post every interval. */
export const MetricsBody = Type.Object({
  appName: Name(1),
  instanceId: Type.Optional(Name(0)),
  environment: Type.Optional(Type.String({ maxLength: 100 })),
  sdkVersion: Type.Optional(Name(0)),
  // Since Unleash 8.0 a report may carry only impact metrics: no bucket, or null. Nullable as
  // OpenAPI 3.0 writes it rather than a union: a bucket that breaks a rule is told so alone, not
  // also that it is not null.
  bucket: Type.Optional(Type.Unsafe<Static<typeof Bucket> | null>({ ...Bucket, nullable: true })),
  impactMetrics: ImpactMetricsField,
});

export const RawMetricsParams = Type.Object({ name: Type.String({ minLength: 1 }) });

export const RawMetricsQuery = Type.Object({
  hoursBack: Type.Optional(Type.String({ description: 'An integer from 1 to 48; anything else means 48' })),
});

export const RawMetrics = Type.Object({
  version: Type.Literal(1),
  maturity: Type.Union([
    Type.Literal('alpha'),
    Type.Literal('beta'),
    Type.Literal('stable'),
    Type.Literal('deprecated'),
  ]),
  data: Type.Array(
    Type.Object({
      featureName: Type.String(),
      appName: Type.String(),
      environment: Type.String(),
      timestamp: Type.String({ format: 'date-time' }),
      yes: Type.Integer(),
      no: Type.Integer(),
      variants: Type.Optional(Type.Record(Type.String(), Type.Integer())),
    }),
  ),
});
