import { type Constraint, type ConstraintOptions, type ContextFields, validateConstraints } from './rules.js';

/**
 * The constraint rules against the context fields as the read model holds them: a field created
 * or changed through the API is there before its answer left, on other processes within a second.
 */
export function checkConstraints(
  fields: ContextFields,
  input: unknown,
  options: ConstraintOptions = {},
): Constraint[] {
  if (Array.isArray(input) && input.length === 0) return [];
  return validateConstraints(input, fields, options);
}

/** E10: one constraint, whose context field must exist. */
export function validateOneConstraint(fields: ContextFields, constraint: unknown): void {
  checkConstraints(fields, [constraint], { path: '', requireKnownContext: true });
}
