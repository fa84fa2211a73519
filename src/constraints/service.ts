import { contextFieldRules } from '../context/lookup.js';
import type { Queryable } from '../db/database.js';
import { type Constraint, type ConstraintOptions, validateConstraints } from './rules.js';

/** The constraint rules against the context fields as they are now (in the caller's transaction). */
export async function checkConstraints(
  db: Queryable,
  input: unknown,
  options: ConstraintOptions = {},
): Promise<Constraint[]> {
  if (Array.isArray(input) && input.length === 0) return [];
  return validateConstraints(input, await contextFieldRules(db), options);
}

/** E10: one constraint, whose context field must exist. */
export async function validateOneConstraint(db: Queryable, constraint: unknown): Promise<void> {
  await checkConstraints(db, [constraint], { path: '', requireKnownContext: true });
}
