import type { Queryable } from '../db/database.js';
import { listEnvironmentRows } from './store.js';
import type { Environment } from './types.js';

/** Every environment, in their order (for the flag read model). */
export function allEnvironments(db: Queryable): Promise<Environment[]> {
  return listEnvironmentRows(db);
}
