import type { Database, Queryable, Transaction } from '../db/database.js';
import type { Actor } from '../http/identity.js';
import { markChanged, type Scope } from '../sync/changes.js';
import type { EventSearch } from './search.js';
import {
  type EventFilter,
  findEventCreators,
  findEvents,
  findEventsByIds,
  type InsertedEvent,
  insertEvents,
  type NewEvent,
  type StoredEvent,
  searchEvents,
} from './store.js';
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

export type { InsertedEvent, StoredEvent };

/** Events by id, for what refers to them (an integration's deliveries). */
export async function readEventsByIds(db: Queryable, ids: number[]): Promise<Map<number, StoredEvent>> {
  return new Map((await findEventsByIds(db, ids)).map((e) => [e.id, e]));
}

/** Work that must commit with the events that cause it (integrations queue their deliveries). */
export type EventSink = (tx: Transaction, events: InsertedEvent[]) => Promise<void>;

const sinks = new WeakMap<Database, EventSink>();

/** The one sink of a database's events, run inside each transaction that records some. */
export function onEventsRecorded(db: Database, sink: EventSink): void {
  sinks.set(db, sink);
}

/**
 * Records the audit event of a change, in the transaction of that change, so the change and its
 * event commit together or not at all. The events of a transaction are written in one statement
 * just before it commits; a change to the configuration also moves the revision caches follow.
 * Callers pass data without secrets.
 */
export function recordEvent(tx: Transaction, actor: Actor, event: EventInput): void {
  const events = tx.local<NewEvent[]>(RECORDED, () => {
    const list: NewEvent[] = [];
    tx.beforeCommit({
      order: 0,
      async run(t) {
        const inserted = await insertEvents(t, list);
        await sinks.get(t.database)?.(t, inserted);
      },
    });
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

/** Unleash's event search: one page of the events matched, newest first, and how many there are. */
export async function readEventSearch(db: Queryable, search: EventSearch) {
  return searchEvents(db, search);
}

/**
 * One page of a feature's events, newest first, and how many it has (an unknown name has none).
 * Paged as the event list is: a feature changed thousands of times must not come in one answer.
 */
export async function readFeatureEvents(
  db: Queryable,
  featureName: string,
  page: Pick<EventFilter, 'limit' | 'offset' | 'hiddenProjects'>,
) {
  const { events, total } = await findEvents(db, { ...page, feature: featureName });
  return { version: 1 as const, toggleName: featureName, events, totalEvents: total };
}

/** The users who made changes, by id, each with the name recorded on their latest event. */
export async function readEventCreatorIds(db: Queryable) {
  return findEventCreators(db);
}
