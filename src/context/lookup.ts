import type { ContextFields } from '../constraints/rules.js';
import type { Queryable } from '../db/database.js';
import { type ContextField, listContextFields } from './store.js';

/** Every context field in its order (for the flag read model). */
export function allContextFields(db: Queryable): Promise<ContextField[]> {
  return listContextFields(db);
}

/** The constraint rules' view of the given context fields. */
export function rulesOf(fields: Iterable<ContextField>): ContextFields {
  return new Map([...fields].map((f) => [f.name, { legalValues: f.legalValues.map((v) => v.value) }]));
}
