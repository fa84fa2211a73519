import type { ContextFields } from '../constraints/rules.js';
import type { Queryable } from '../db/database.js';
import { listContextFields } from './store.js';
import type { ContextField } from './types.js';

/** Every context field in its order, those of projects included (for the flag read model). */
export function allContextFields(db: Queryable): Promise<ContextField[]> {
  return listContextFields(db, 'all');
}

/**
 * The constraint rules' view of the given context fields. With `project` (null: no project), the
 * fields of other projects are marked as theirs, so constraints there are refused; without it,
 * every field is usable.
 */
export function rulesOf(fields: Iterable<ContextField>, project?: string | null): ContextFields {
  return new Map(
    [...fields].map((f) => {
      const legalValues = f.legalValues.map((v) => v.value);
      const foreign = project !== undefined && f.project !== null && f.project !== project;
      return [f.name, foreign ? { legalValues, otherProject: f.project! } : { legalValues }];
    }),
  );
}
