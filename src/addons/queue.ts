import type { Database } from '../db/database.js';
import { onEventsRecorded } from '../events/service.js';
import { EVENT_SCOPES, type EventType } from '../events/types.js';
import type { ConfigSync } from '../sync/sync.js';
import { insertDeliveries, listenedEventTypes } from './store.js';

/**
 * Makes every transaction that records events queue the deliveries of the integrations listening
 * to them, in the same transaction; `wake` is called once such a transaction has committed. Which
 * event types are listened to is kept with the caches, but taken from them only where they hold
 * everything the database does (the embedded database's sole writer, caught up): on PostgreSQL an
 * integration created through another process a moment ago is not in them yet, and its events
 * would go undelivered, so there the transaction reads them.
 */
export function queueDeliveries(db: Database, sync: ConfigSync, wake: () => void): void {
  let listened: ReadonlySet<string> | undefined;
  sync.follow({
    load: async (tx, changes) => {
      if (!changes.full && !changes.scopes.has('addons')) return undefined;
      const types = await listenedEventTypes(tx);
      return () => {
        listened = types;
      };
    },
  });
  onEventsRecorded(db, async (tx, events) => {
    if (events.length === 0) return;
    // An integration changed in this very transaction is not in the caches either.
    const cached = sync.holdsEverythingNow() && !events.some((e) => changesAddons(e.type)) && listened;
    const types = cached || (await listenedEventTypes(tx));
    if ((await insertDeliveries(tx, events, types)) > 0) tx.afterCommit(wake);
  });
}

function changesAddons(type: string): boolean {
  return (EVENT_SCOPES[type as EventType] as readonly string[] | undefined)?.includes('addons') === true;
}
