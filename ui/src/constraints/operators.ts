import type { Constraint, Operator } from '../api/types';

interface OperatorInfo {
  label: string;
  /** Several values (a list) or one. */
  multi: boolean;
  /** Compares text, so case can be ignored. */
  text: boolean;
}

export const OPERATORS: Record<Operator, OperatorInfo> = {
  IN: { label: 'is one of', multi: true, text: false },
  NOT_IN: { label: 'is not one of', multi: true, text: false },
  STR_CONTAINS: { label: 'contains', multi: true, text: true },
  STR_STARTS_WITH: { label: 'starts with', multi: true, text: true },
  STR_ENDS_WITH: { label: 'ends with', multi: true, text: true },
  NUM_EQ: { label: 'equals (number)', multi: false, text: false },
  NUM_GT: { label: 'is greater than', multi: false, text: false },
  NUM_GTE: { label: 'is at least', multi: false, text: false },
  NUM_LT: { label: 'is less than', multi: false, text: false },
  NUM_LTE: { label: 'is at most', multi: false, text: false },
  DATE_AFTER: { label: 'is after (date)', multi: false, text: false },
  DATE_BEFORE: { label: 'is before (date)', multi: false, text: false },
  SEMVER_EQ: { label: 'is version', multi: false, text: false },
  SEMVER_GT: { label: 'is a version above', multi: false, text: false },
  SEMVER_LT: { label: 'is a version below', multi: false, text: false },
  SEMVER_GTE: { label: 'is a version at or above', multi: false, text: false },
  SEMVER_LTE: { label: 'is a version at or below', multi: false, text: false },
};

export const OPERATOR_CHOICES = (Object.keys(OPERATORS) as Operator[]).map((op) => ({
  value: op,
  label: OPERATORS[op].label,
}));

/** A constraint in words: `userId is one of alice, bob`. */
export function describeConstraint(c: Constraint): string {
  const info = OPERATORS[c.operator];
  const values = info?.multi ? (c.values ?? []).join(', ') : (c.value ?? '');
  const label = info?.label ?? c.operator;
  return `${c.contextName} ${c.inverted ? `NOT ${label}` : label} ${values}${c.caseInsensitive ? ' (any case)' : ''}`;
}
