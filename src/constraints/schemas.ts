import { Type } from '@sinclair/typebox';

/** Operators that compare against a list of `values`. */
export const MULTI_VALUE_OPERATORS = [
  'IN',
  'NOT_IN',
  'STR_CONTAINS',
  'STR_STARTS_WITH',
  'STR_ENDS_WITH',
] as const;

export const NUMBER_OPERATORS = ['NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE'] as const;
export const DATE_OPERATORS = ['DATE_AFTER', 'DATE_BEFORE'] as const;
/** SEMVER_GTE and SEMVER_LTE are newer than the fifteen of the contract; SDKs that know them use them. */
export const SEMVER_OPERATORS = ['SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT', 'SEMVER_GTE', 'SEMVER_LTE'] as const;

export const OPERATORS = [
  ...MULTI_VALUE_OPERATORS,
  ...NUMBER_OPERATORS,
  ...DATE_OPERATORS,
  ...SEMVER_OPERATORS,
] as const;

export type Operator = (typeof OPERATORS)[number];

/** Limits of Unleash's defaults, so a flag that works there works here and the other way round. */
export const MAX_CONSTRAINTS = 30;
export const MAX_CONSTRAINT_VALUES = 250;

export const ConstraintSchema = Type.Object(
  {
    contextName: Type.String({ minLength: 1, maxLength: 100, description: 'The context field compared' }),
    operator: Type.Unsafe<Operator>({ type: 'string', enum: [...OPERATORS] }),
    caseInsensitive: Type.Optional(Type.Boolean({ description: 'For the string operators; default false' })),
    inverted: Type.Optional(Type.Boolean({ description: 'Negates the result; default false' })),
    values: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: MAX_CONSTRAINT_VALUES,
        description: 'For IN, NOT_IN and the STR_* operators: at least one value',
      }),
    ),
    value: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'For the NUM_*, DATE_* and SEMVER_* operators: a number, a date-time or a version',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ConstraintList = Type.Array(ConstraintSchema, { maxItems: MAX_CONSTRAINTS });

/** A constraint as stored and served. */
export const StoredConstraint = Type.Object({
  contextName: Type.String(),
  operator: Type.String(),
  values: Type.Array(Type.String()),
  value: Type.Optional(Type.String()),
  inverted: Type.Boolean(),
  caseInsensitive: Type.Boolean(),
});
