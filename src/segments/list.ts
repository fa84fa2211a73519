import type { Queryable } from '../db/database.js';
import { listSegments, type Segment } from './store.js';

/** Every segment (for the flag read model). */
export function allSegments(db: Queryable): Promise<Segment[]> {
  return listSegments(db);
}
