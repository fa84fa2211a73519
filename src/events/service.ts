import type { Queryable, Transaction } from '../db/database.js';
import type { Actor } from '../http/identity.js';
import { markChanged, type Scope } from '../sync/changes.js';
import { type EventFilter, findEvents, insertEvents, type NewEvent } from './store.js';
import { EVENT_SCOPES, type EventType } from './types.js';

export interface EventInput {
  type: EventType;
  project?: string | null;
  featureName?: string | null;
  environment?: string | null;
  data?: unknown;
  preData?: unknown;
}

const RECORDED = {};

/**
 * Records the audit event of a change, in the transaction of that change, so the change and its
 * event commit together or not at all. The events of a transaction are written in one statement
 * just before it commits; a change to the configuration also moves the revision caches follow.
 * Callers pass data without secrets.
 */
export function recordEvent(tx: Transaction, actor: Actor, event: EventInput): void {
  const events = tx.local<NewEvent[]>(RECORDED, () => {
    const list: NewEvent[] = [];
    tx.beforeCommit({ order: 0, run: (t) => insertEvents(t, list) });
    return list;
  });
  events.push({ ...event, createdBy: actor.name, createdByUserId: actor.userId });
  const scopes: readonly Scope[] = EVENT_SCOPES[event.type];
  // A feature's change without its name cannot be reloaded alone: everything is.
  const named = event.featureName ? [event.featureName] : [];
  markChanged(tx, {
    scopes: scopes.includes('features') && named.length === 0 ? ['model'] : scopes,
    features: named,
  });
}

export async function readEvents(db: Queryable, filter: EventFilter) {
  const { events, total } = await findEvents(db, filter);
  return { version: 1 as const, events, totalEvents: total };
}
