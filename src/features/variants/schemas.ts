import { Type } from '@sinclair/typebox';
import { UrlFriendlyName } from '../../http/names.js';
import { MAX_PATCH_OPERATIONS } from '../../http/schemas.js';

export const PAYLOAD_TYPES = ['json', 'csv', 'string', 'number'] as const;
export const WEIGHT_TYPES = ['variable', 'fix'] as const;
export type WeightType = (typeof WEIGHT_TYPES)[number];

export const PayloadSchema = Type.Object(
  {
    type: Type.Unsafe<(typeof PAYLOAD_TYPES)[number]>({ type: 'string', enum: [...PAYLOAD_TYPES] }),
    value: Type.String({ description: 'Text; JSON text for `json`, a decimal number for `number`' }),
  },
  { additionalProperties: false },
);

// An override names users (or other context values) that always get the variant: lists of
// people can be long, but each variant is served to every SDK, so they are held to a thousand.
export const OverrideSchema = Type.Object(
  {
    contextName: Type.String({ minLength: 1, maxLength: 100 }),
    values: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 1000 }),
  },
  { additionalProperties: false },
);

const variantFields = {
  name: UrlFriendlyName,
  weight: Type.Integer({ minimum: 0, maximum: 1000, description: 'Per mille; kept for `fix` variants' }),
  weightType: Type.Optional(
    Type.Unsafe<WeightType>({
      type: 'string',
      enum: [...WEIGHT_TYPES],
      description: '`fix` keeps the weight; `variable` (the default) shares what is left',
    }),
  ),
  stickiness: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default `default`' })),
  payload: Type.Optional(PayloadSchema),
};

/** A variant of a feature in one environment, as sent. */
export const VariantSchema = Type.Object(
  // One override per context field is all a variant needs; a hundred is more than any has.
  { ...variantFields, overrides: Type.Optional(Type.Array(OverrideSchema, { maxItems: 100 })) },
  { additionalProperties: false },
);

/** A variant of a strategy, as sent: no overrides. */
export const StrategyVariantSchema = Type.Object(variantFields, { additionalProperties: false });

export const VariantList = Type.Array(VariantSchema, { maxItems: 100 });
export const StrategyVariantList = Type.Array(StrategyVariantSchema, { maxItems: 100 });

const StoredPayload = Type.Object({ type: Type.String(), value: Type.String() });

/** A variant as stored and served: weights fixed, defaults filled in. */
export const StoredVariant = Type.Object({
  name: Type.String(),
  weight: Type.Integer(),
  weightType: Type.String(),
  stickiness: Type.String(),
  payload: Type.Optional(StoredPayload),
  overrides: Type.Optional(
    Type.Array(Type.Object({ contextName: Type.String(), values: Type.Array(Type.String()) })),
  ),
});

export const FeatureVariants = Type.Object({
  version: Type.Literal(1),
  variants: Type.Array(StoredVariant),
});

export const VariantPatch = Type.Array(
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
    description: 'JSON Patch (RFC 6902) operations on the variant list, e.g. `/0/weight` or `/-`',
  },
);

/** PUT variants-batch: one variant list for several environments. */
export const VariantsBatchBody = Type.Object({
  variants: VariantList,
  environments: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    minItems: 1,
    maxItems: 100,
    description: 'The environments that get the list: at least one',
  }),
});
