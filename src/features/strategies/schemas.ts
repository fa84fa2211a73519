import { Type } from '@sinclair/typebox';
import { ConstraintList, StoredConstraint } from '../../constraints/schemas.js';
import { IntegerId, MAX_PATCH_OPERATIONS, Nullable } from '../../http/schemas.js';
import { StoredVariant, StrategyVariantList } from '../variants/schemas.js';

export const FeatureEnvironmentParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  featureName: Type.String({ minLength: 1 }),
  environment: Type.String({ minLength: 1 }),
});

export const StrategyParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  featureName: Type.String({ minLength: 1 }),
  environment: Type.String({ minLength: 1 }),
  strategyId: Type.String({ minLength: 1 }),
});

/** Parameter values are stored as strings; numbers and booleans are accepted and written as text. */
const Parameters = Type.Unsafe<Record<string, string | number | boolean>>({
  type: 'object',
  additionalProperties: { type: ['string', 'number', 'boolean'], maxLength: 10_000 },
  maxProperties: 100,
  description:
    'Parameter name to value, e.g. `{ "rollout": "50", "stickiness": "default", "groupId": "my-flag" }`',
});

const SortOrder = Type.Integer({ minimum: -2147483648, maximum: 2147483647 });

const configFields = {
  title: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  disabled: Type.Optional(Nullable(Type.Boolean())),
  parameters: Type.Optional(Parameters),
  constraints: Type.Optional(ConstraintList),
  segments: Type.Optional(Type.Array(IntegerId, { maxItems: 100, description: 'Segment ids' })),
  variants: Type.Optional(StrategyVariantList),
  sortOrder: Type.Optional(SortOrder),
};

const StrategyType = Type.String({ minLength: 1, maxLength: 100, description: 'The strategy type' });

export const CreateStrategyBody = Type.Object({ name: StrategyType, ...configFields });

export const UpdateStrategyBody = Type.Object({ name: Type.Optional(StrategyType), ...configFields });

export const FeatureStrategySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  title: Nullable(Type.String()),
  disabled: Type.Boolean(),
  featureName: Type.String(),
  constraints: Type.Array(StoredConstraint),
  parameters: Type.Record(Type.String(), Type.String()),
  variants: Type.Array(StoredVariant),
  segments: Type.Array(Type.Integer()),
  sortOrder: Type.Integer(),
});

export const FeatureStrategyList = Type.Array(FeatureStrategySchema);

export const SortOrderBody = Type.Array(
  Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), sortOrder: SortOrder }),
  { maxItems: 1000 },
);

/** The strategy a project gives a feature switched on in one of its environments without any. */
export const DefaultStrategyBody = CreateStrategyBody;

export const DefaultStrategySchema = Type.Object({
  name: Type.String(),
  title: Nullable(Type.String()),
  disabled: Type.Boolean(),
  parameters: Type.Record(Type.String(), Type.String()),
  constraints: Type.Array(StoredConstraint),
  variants: Type.Array(StoredVariant),
  segments: Type.Array(Type.Integer()),
});

export const StrategyPatch = Type.Array(
  Type.Object({
    op: Type.Unsafe<'add' | 'remove' | 'replace' | 'copy' | 'move' | 'test'>({
      type: 'string',
      enum: ['add', 'remove', 'replace', 'copy', 'move', 'test'],
    }),
    path: Type.String(),
    from: Type.Optional(Type.String()),
    value: Type.Optional(Type.Unknown()),
  }),
  {
    maxItems: MAX_PATCH_OPERATIONS,
    description:
      'JSON Patch (RFC 6902) operations on the strategy, e.g. `/parameters/rollout` or `/constraints/-`',
  },
);
