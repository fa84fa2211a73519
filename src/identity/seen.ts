import type { Database } from '../db/database.js';

const INTERVAL_MS = 60_000;
const lastWrites = new WeakMap<Database, Map<string, number>>();

/**
 * Records that a credential was used, at most once a minute per credential: `seenAt` is
 * informational, and a write on every request would cost more than the request itself.
 */
export function noteSeen(db: Database, key: string, write: (db: Database) => Promise<void>): void {
  let writes = lastWrites.get(db);
  if (!writes) {
    writes = new Map();
    lastWrites.set(db, writes);
  }
  const now = Date.now();
  if (now - (writes.get(key) ?? 0) < INTERVAL_MS) return;
  writes.set(key, now);
  // A failed write (e.g. during shutdown) must never fail the request that used the credential.
  write(db).catch(() => {});
}
