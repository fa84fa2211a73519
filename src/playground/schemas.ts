import { Type } from '@sinclair/typebox';

const text = (description: string) => Type.Optional(Type.String({ maxLength: 10_000, description }));

/** The context as SDKs model it; other top-level fields are custom properties. */
export const SdkContext = Type.Object(
  {
    appName: Type.String({ minLength: 1, maxLength: 10_000, description: 'The name of the application' }),
    currentTime: Type.Optional(
      Type.String({ format: 'date-time', description: 'When the evaluation happens (default: now)' }),
    ),
    environment: text('Deprecated: the environment is chosen by `environment(s)`'),
    remoteAddress: text("The app's IP address"),
    sessionId: text('The id of the session'),
    userId: text('The id of the user'),
    properties: Type.Optional(
      Type.Record(Type.String(), Type.String({ maxLength: 10_000 }), {
        maxProperties: 1000,
        description: 'Custom context fields',
      }),
    ),
  },
  { additionalProperties: true, maxProperties: 1000 },
);

const Projects = Type.Optional(
  Type.Union([Type.Array(Type.String({ maxLength: 100 }), { maxItems: 1000 }), Type.Literal('*')], {
    description: 'The projects whose features are evaluated: a list, or `*` (the default) for all',
  }),
);

export const PlaygroundBody = Type.Object({
  environment: Type.String({ minLength: 1, maxLength: 100, description: 'The environment to evaluate in' }),
  projects: Projects,
  context: SdkContext,
});

export const AdvancedPlaygroundBody = Type.Object({
  environments: Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-zA-Z0-9~_.-]+$' }), {
    minItems: 1,
    maxItems: 100,
    description: 'The environments to evaluate in',
  }),
  projects: Projects,
  context: Type.Object(SdkContext.properties, {
    additionalProperties: true,
    maxProperties: 1000,
    description: 'Comma-separated values give several contexts: every combination is evaluated',
  }),
});

const Variant = Type.Object({
  name: Type.String(),
  enabled: Type.Boolean(),
  payload: Type.Optional(Type.Object({ type: Type.String(), value: Type.String() })),
  feature_enabled: Type.Optional(Type.Boolean()),
  featureEnabled: Type.Optional(Type.Boolean({ deprecated: true })),
});

const Constraint = Type.Object(
  { contextName: Type.String(), operator: Type.String(), result: Type.Boolean() },
  { additionalProperties: true, description: 'A constraint as stored, and whether the context meets it' },
);

const Strategy = Type.Object({
  name: Type.String(),
  title: Type.Optional(Type.String()),
  id: Type.String(),
  disabled: Type.Boolean(),
  parameters: Type.Record(Type.String(), Type.String()),
  result: Type.Object(
    {
      enabled: Type.Union([Type.Boolean(), Type.Literal('unknown')]),
      evaluationStatus: Type.Union([
        Type.Literal('complete'),
        Type.Literal('incomplete'),
        Type.Literal('unevaluated'),
      ]),
      variant: Type.Optional(
        Type.Union([Type.Omit(Variant, ['feature_enabled', 'featureEnabled']), Type.Null()]),
      ),
      variants: Type.Optional(Type.Array(Type.Unknown())),
    },
    {
      description:
        '`incomplete`: a custom strategy this server cannot evaluate (`unknown` at best); `unevaluated`: disabled',
    },
  ),
  constraints: Type.Array(Constraint),
  segments: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      result: Type.Boolean(),
      constraints: Type.Array(Constraint),
    }),
  ),
  links: Type.Object({ edit: Type.String() }),
});

const Evaluated = {
  name: Type.String(),
  projectId: Type.String(),
  isEnabled: Type.Boolean({ description: 'Whether an SDK would find it on for the context' }),
  isEnabledInCurrentEnvironment: Type.Boolean(),
  hasUnsatisfiedDependency: Type.Boolean({ description: "Whether its parent's condition fails" }),
  variant: Variant,
  variants: Type.Array(Type.Unknown(), { description: 'The variants its variant comes from' }),
  strategies: Type.Object({
    result: Type.Union([Type.Boolean(), Type.Literal('unknown')]),
    data: Type.Array(Strategy),
  }),
};

export const PlaygroundResponse = Type.Object({
  input: PlaygroundBody,
  features: Type.Array(Type.Object(Evaluated)),
});

export const AdvancedPlaygroundResponse = Type.Object({
  input: AdvancedPlaygroundBody,
  features: Type.Array(
    Type.Object({
      name: Type.String(),
      projectId: Type.String(),
      environments: Type.Record(
        Type.String(),
        Type.Array(
          Type.Object({
            ...Evaluated,
            environment: Type.String(),
            context: Type.Record(Type.String(), Type.String(), {
              description: 'The context of this combination',
            }),
          }),
        ),
      ),
    }),
  ),
  warnings: Type.Optional(
    Type.Object({
      invalidContextProperties: Type.Array(Type.String(), {
        description: 'Top-level context fields left out for not being text',
      }),
    }),
  ),
});

/** The answers as sent: JSON text, in the shapes above. */
export const PlaygroundResponseText = Type.Unsafe<string>(PlaygroundResponse);
export const AdvancedPlaygroundResponseText = Type.Unsafe<string>(AdvancedPlaygroundResponse);
