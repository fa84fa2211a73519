import type { Queryable } from '../db/database.js';
import type { FeaturePatch, Scope } from './changes.js';
import type { StoredChange } from './store.js';

/** What the caches must take in to reach `revision`. */
export interface ChangeSet {
  revision: number;
  /** Reload everything: the first load, changes no longer recorded, or a change of scope `model`. */
  full: boolean;
  scopes: ReadonlySet<Scope>;
  features: ReadonlySet<string>;
  /**
   * Present when every change is this process's own and its writers knew all it changed: for each
   * feature, the patches that make a copy of it current, in order (nothing needs reading).
   */
  patches?: ReadonlyMap<string, readonly FeaturePatch[]>;
  /** Features this process's writers gave whole (a copy needs no read), among `features`. */
  records?: ReadonlyMap<string, unknown>;
}

/** A cache that follows the configuration revision. */
export interface Follower {
  /**
   * Reads what the changes need, inside the catch-up's read-only snapshot, and returns the
   * function that swaps it in. Swaps run together, after the read, so no cache is ahead of another.
   */
  load(tx: Queryable, changes: ChangeSet): Promise<(() => void) | undefined>;
}

/** What followers are handed when a change needs no read: reading from it is a mistake. */
export const NOTHING_TO_READ: Queryable = {
  query() {
    return Promise.reject(new Error('sync: a cache read the database for a change its writer described'));
  },
};

/**
 * The change set of the changes read after `applied`, up to `revision`, with the features this
 * process's writers gave whole among them (unless everything is reloaded).
 */
export function changeSet(
  revision: number,
  applied: number,
  changes: StoredChange[],
  local?: { recordsAmong(changes: readonly StoredChange[]): ReadonlyMap<string, unknown> },
): ChangeSet {
  const scopes = new Set<Scope>();
  const features = new Set<string>();
  for (const change of changes) {
    for (const scope of change.scopes) scopes.add(scope as Scope);
    for (const name of change.features) features.add(name);
  }
  const complete = applied >= 0 && changes.length === revision - applied;
  const full = !complete || scopes.has('model');
  const records = full ? undefined : local?.recordsAmong(changes);
  return { revision, full, scopes, features, ...(records?.size ? { records } : {}) };
}
