import type { Queryable } from '../db/database.js';
import { listSegments } from './store.js';
import type { Segment } from './types.js';

/** Every segment (for the flag read model). */
export function allSegments(db: Queryable): Promise<Segment[]> {
  return listSegments(db);
}
