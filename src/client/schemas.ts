import { Type } from '@sinclair/typebox';

export const ClientFeaturesQuery = Type.Object({
  project: Type.Optional(Type.Array(Type.String())),
  namePrefix: Type.Optional(Type.String()),
  tag: Type.Optional(Type.Array(Type.String({ description: 'type:value' }))),
  environment: Type.Optional(Type.String({ description: "Ignored: the token's environment applies" })),
});

export const ClientFeatureParams = Type.Object({ featureName: Type.String({ minLength: 1 }) });

const Strategy = Type.Object(
  {
    name: Type.String(),
    constraints: Type.Array(Type.Unknown()),
    parameters: Type.Record(Type.String(), Type.String()),
    segments: Type.Optional(
      Type.Array(Type.Integer(), { description: 'Only when the strategy has segments' }),
    ),
    variants: Type.Array(Type.Unknown()),
  },
  { additionalProperties: true },
);

export const ClientFeature = Type.Object({
  name: Type.String(),
  type: Type.String(),
  description: Type.Optional(Type.String({ description: 'Only when the flag has one' })),
  project: Type.String(),
  enabled: Type.Boolean(),
  stale: Type.Boolean(),
  impressionData: Type.Boolean(),
  strategies: Type.Array(Strategy),
  variants: Type.Array(Type.Unknown()),
  dependencies: Type.Optional(
    Type.Array(
      Type.Object({ feature: Type.String(), enabled: Type.Boolean(), variants: Type.Array(Type.String()) }),
      { description: 'The parent this flag depends on; only when it has one' },
    ),
  ),
});

export const ClientFeatures = Type.Object({
  version: Type.Literal(2),
  features: Type.Array(ClientFeature),
  segments: Type.Optional(
    Type.Array(
      Type.Object({ id: Type.Integer(), name: Type.String(), constraints: Type.Array(Type.Unknown()) }),
    ),
  ),
  query: Type.Object({}, { additionalProperties: true }),
  meta: Type.Object({ revisionId: Type.Integer(), etag: Type.String(), queryHash: Type.String() }),
});

const Segment = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  constraints: Type.Array(Type.Unknown()),
});

export const ClientDeltaQuery = Type.Object({
  project: Type.Optional(Type.Array(Type.String())),
  namePrefix: Type.Optional(Type.String()),
  tag: Type.Optional(Type.Array(Type.String({ description: 'Ignored, as Unleash ignores it for deltas' }))),
  environment: Type.Optional(Type.String({ description: "Ignored: the token's environment applies" })),
});

export const ClientDelta = Type.Object({
  events: Type.Array(
    Type.Union([
      Type.Object({
        type: Type.Literal('hydration'),
        eventId: Type.Integer(),
        features: Type.Array(ClientFeature),
        segments: Type.Array(Segment),
      }),
      Type.Object({ type: Type.Literal('feature-updated'), eventId: Type.Integer(), feature: ClientFeature }),
      Type.Object({
        type: Type.Literal('feature-removed'),
        eventId: Type.Integer(),
        featureName: Type.String(),
        project: Type.String(),
      }),
      Type.Object({ type: Type.Literal('segment-updated'), eventId: Type.Integer(), segment: Segment }),
      Type.Object({
        type: Type.Literal('segment-removed'),
        eventId: Type.Integer(),
        segmentId: Type.Integer(),
      }),
    ]),
  ),
});

const Payload = Type.Object({ type: Type.String(), value: Type.String() });

export const FrontendToggle = Type.Object({
  name: Type.String(),
  enabled: Type.Boolean(),
  variant: Type.Object({
    name: Type.String(),
    enabled: Type.Boolean(),
    feature_enabled: Type.Boolean(),
    featureEnabled: Type.Boolean(),
    payload: Type.Optional(Payload),
  }),
  impressionData: Type.Boolean(),
});

export const FrontendToggles = Type.Object({ toggles: Type.Array(FrontendToggle) });

export const FrontendFeatureParams = Type.Object({ featureName: Type.String({ minLength: 1 }) });

export const FrontendContextBody = Type.Object({
  context: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
