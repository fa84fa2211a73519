import { Type } from '@sinclair/typebox';
import { UrlFriendlyName } from '../http/names.js';
import { Nullable } from '../http/schemas.js';

export const StrategyNameParams = Type.Object({ name: Type.String({ minLength: 1 }) });

/** Unleash names the path parameter of deprecate and reactivate `strategyName`. */
export const StrategyTypeParams = Type.Object({ strategyName: Type.String({ minLength: 1 }) });

export const PARAMETER_TYPES = ['string', 'percentage', 'list', 'number', 'boolean'] as const;

const ParameterDefinition = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'The name SDKs read the value under' }),
  type: Type.Unsafe<(typeof PARAMETER_TYPES)[number]>({
    type: 'string',
    enum: [...PARAMETER_TYPES],
    description: 'How the value is entered and checked',
  }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  required: Type.Optional(
    Type.Boolean({ description: 'Whether every use must give a value (default false)' }),
  ),
});

const ParameterDefinitions = Type.Array(ParameterDefinition, {
  maxItems: 100,
  description: 'The parameters a feature strategy of this type takes; names must differ',
});

export const CreateStrategyTypeBody = Type.Object({
  name: UrlFriendlyName,
  title: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  deprecated: Type.Optional(Type.Boolean()),
  parameters: ParameterDefinitions,
});

/** As Unleash: `parameters` is required; `title` and `description` are kept when omitted; the name never changes. */
export const UpdateStrategyTypeBody = Type.Object({
  title: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  parameters: ParameterDefinitions,
});

export const StrategyDefinitionSchema = Type.Object({
  name: Type.String(),
  displayName: Type.String(),
  title: Nullable(Type.String()),
  description: Type.String(),
  editable: Type.Boolean(),
  deprecated: Type.Boolean(),
  parameters: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String(),
      description: Type.String(),
      required: Type.Boolean(),
    }),
  ),
});

export const StrategyDefinitionList = Type.Object({
  version: Type.Literal(1),
  strategies: Type.Array(StrategyDefinitionSchema),
});
