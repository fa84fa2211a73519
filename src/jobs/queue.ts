import type { Queryable } from '../db/database.js';
import { cancelJob, insertJobUnlessWaiting, upsertJob } from './store.js';

// What other folders do with jobs: make one wait for its time, or drop it. Inside the transaction
// that decides it, so the job exists exactly when what asked for it committed.

/** The job of the kind about `key` runs at `at` (moved there if it was waiting already). */
export function scheduleJob(db: Queryable, kind: string, key: string, at: Date): Promise<void> {
  return upsertJob(db, kind, key, at);
}

/** The recurring job of the kind about `key` exists: made to run at `at` when it does not. */
export function ensureJob(db: Queryable, kind: string, key: string, at: Date): Promise<void> {
  return insertJobUnlessWaiting(db, kind, key, at);
}

/** The job of the kind about `key` will not run. */
export function dropJob(db: Queryable, kind: string, key: string): Promise<void> {
  return cancelJob(db, kind, key);
}

export { deleteEndedJobsBefore } from './store.js';
