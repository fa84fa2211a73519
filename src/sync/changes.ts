import type { Database, Transaction } from '../db/database.js';
import { bumpConfigRevision, bumpMetricsRevision } from './store.js';

/**
 * What a change touched, so caches reload only what they hold of it:
 * - `features`: the named features (their rows, environments, strategies, variants and tags);
 * - `segments`: the segments;
 * - `model`: any other part of the flag configuration (projects, environments, context fields…);
 * - `identity`: credentials, users, roles, groups and grants;
 * - `profiles`: only what users read about themselves (their feedback, when they last signed in),
 *   which must not make every process forget the credentials and grants it resolved;
 * - `settings`: the instance's settings (the maintenance switch, the origins allowed to call the SDK
 *   paths, which ways of signing in are on).
 */
export type Scope = 'features' | 'segments' | 'model' | 'identity' | 'profiles' | 'settings';

export interface Change {
  scopes: readonly Scope[];
  features?: readonly string[];
}

interface Pending {
  scopes: Set<Scope>;
  features: Set<string>;
}

const PENDING = {};
const METRICS_PENDING = {};
const commitListeners = new WeakMap<Database, (revision: number) => void>();
const metricsCommitListeners = new WeakMap<Database, (revision: number) => void>();

/** The process's sync registers here to hear of its own commits without asking the database. */
export function onLocalCommit(db: Database, listener: (revision: number) => void): void {
  commitListeners.set(db, listener);
}

/** Likewise for this process's own writes of usage counts. */
export function onLocalMetricsCommit(db: Database, listener: (revision: number) => void): void {
  metricsCommitListeners.set(db, listener);
}

/**
 * Marks the transaction as changing the configuration. When it commits, its last statement bumps
 * the revision (recording what changed and notifying other processes), and this process's caches
 * learn of it at once.
 */
export function markChanged(tx: Transaction, change: Change): void {
  if (change.scopes.length === 0) return;
  const pending = tx.local<Pending>(PENDING, () => {
    const state: Pending = { scopes: new Set(), features: new Set() };
    let revision = 0;
    tx.beforeCommit({
      order: 100,
      async run(t) {
        revision = await bumpConfigRevision(t, [...state.scopes].sort(), [...state.features].sort());
      },
    });
    tx.afterCommit(() => commitListeners.get(tx.database)?.(revision));
    return state;
  });
  for (const scope of change.scopes) pending.scopes.add(scope);
  for (const name of change.features ?? []) pending.features.add(name);
}

/**
 * Marks the transaction as writing SDK usage counts. When it commits, its last statement bumps the
 * metrics revision (notifying other processes), and this process's caches of counts are emptied
 * before anything else runs: a read right after the write is never answered from before it.
 */
export function markMetricsWritten(tx: Transaction): void {
  tx.local(METRICS_PENDING, () => {
    let revision = 0;
    tx.beforeCommit({
      order: 100,
      async run(t) {
        revision = await bumpMetricsRevision(t);
      },
    });
    tx.afterCommit(() => metricsCommitListeners.get(tx.database)?.(revision));
    return true;
  });
}
