import type { Queryable } from '../db/database.js';
import type { Actor } from '../http/identity.js';
import { type EventFilter, findEvents, insertEvent } from './store.js';

export interface EventInput {
  type: string;
  project?: string | null;
  featureName?: string | null;
  environment?: string | null;
  data?: unknown;
  preData?: unknown;
}

/**
 * Writes the audit event of a change. Always called with the transaction of that change, so the
 * change and its event commit together or not at all. Callers pass data without secrets.
 */
export async function recordEvent(tx: Queryable, actor: Actor, event: EventInput): Promise<number> {
  return insertEvent(tx, { ...event, createdBy: actor.name, createdByUserId: actor.userId });
}

export async function readEvents(db: Queryable, filter: EventFilter) {
  const { events, total } = await findEvents(db, filter);
  return { version: 1 as const, events, totalEvents: total };
}
