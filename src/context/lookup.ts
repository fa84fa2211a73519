import type { ContextFields } from '../constraints/rules.js';
import type { Queryable } from '../db/database.js';
import { legalValuesByField } from './store.js';

/**
 * Every context field with its legal values, as the constraint rules need them. Apart from the
 * context service so that the areas storing constraints can read it without depending on that
 * service (which asks them, in turn, whether a field is in use).
 */
export async function contextFieldRules(db: Queryable): Promise<ContextFields> {
  const values = await legalValuesByField(db);
  return new Map([...values].map(([name, legalValues]) => [name, { legalValues }]));
}
