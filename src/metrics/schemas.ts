import { Type } from '@sinclair/typebox';

const Count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** What SDKs post every interval: per feature, how often it was on, off, and which variants were given. */
export const MetricsBody = Type.Object({
  appName: Type.String({ minLength: 1, maxLength: 255 }),
  instanceId: Type.Optional(Type.String({ maxLength: 255 })),
  environment: Type.Optional(Type.String()),
  sdkVersion: Type.Optional(Type.String({ maxLength: 255 })),
  bucket: Type.Object({
    start: Type.String({ format: 'date-time' }),
    stop: Type.String({ format: 'date-time' }),
    toggles: Type.Record(
      Type.String({ minLength: 1, maxLength: 255 }),
      Type.Object({
        yes: Count,
        no: Count,
        variants: Type.Optional(Type.Record(Type.String({ maxLength: 255 }), Count)),
      }),
      { maxProperties: 10_000 },
    ),
  }),
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
