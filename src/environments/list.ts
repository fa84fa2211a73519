import type { Queryable } from '../db/database.js';
import { type Environment, listEnvironmentRows } from './store.js';

/** Every environment, in their order (for the flag read model). */
export function allEnvironments(db: Queryable): Promise<Environment[]> {
  return listEnvironmentRows(db);
}
