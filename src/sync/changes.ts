import type { Database, Transaction } from '../db/database.js';
import { bumpConfigRevision, bumpMetricsRevision } from './store.js';

/**
 * What a change touched, so caches reload only what they hold of it:
 * - `features`: the named features (their rows, environments, strategies, variants and tags);
 * - `segments`: the segments;
 * - `catalog`: definitions features refer to by name and nothing else (new projects and projects'
 *   settings, context fields, strategy types, feature and tag types, tags): no feature's own record
 *   changes with them;
 * - `model`: any other part of the flag configuration (projects' environments, environments…), so
 *   that everything is reloaded;
 * - `identity`: credentials, users, roles, groups and grants;
 * - `profiles`: only what users read about themselves (their feedback, when they last signed in),
 *   which must not make every process forget the credentials and grants it resolved;
 * - `settings`: the instance's settings (the maintenance switch, the origins allowed to call the SDK
 *   paths, which ways of signing in are on);
 * - `addons`: the integrations (which events they listen to).
 */
export type Scope =
  | 'features'
  | 'segments'
  | 'catalog'
  | 'model'
  | 'identity'
  | 'profiles'
  | 'settings'
  | 'addons';

export interface Change {
  scopes: readonly Scope[];
  features?: readonly string[];
}

/**
 * How the model's copy of a feature changes with a write, known by the writer (the record's type
 * is the read model's, which follows the sync: kept opaque here).
 */
export type FeaturePatch = (record: never) => unknown;

/** What this process's own commit changed, handed to its sync without a read. */
export interface LocalChange {
  scopes: readonly Scope[];
  features: readonly string[];
  /**
   * For each feature changed, in order, the patches that make the model's copy what was written —
   * present only when the writers knew all of it (see `markPatched`).
   */
  patches?: ReadonlyMap<string, readonly FeaturePatch[]>;
  /** Features the writers gave whole, as the model holds them (see `markWrittenWhole`). */
  records?: ReadonlyMap<string, unknown>;
}

interface Pending {
  scopes: Set<Scope>;
  features: Set<string>;
  patches: Map<string, FeaturePatch[]>;
  records: Map<string, unknown>;
}

const PENDING = {};
const METRICS_PENDING = {};
const commitListeners = new WeakMap<Database, (revision: number, change: LocalChange) => void>();
const metricsCommitListeners = new WeakMap<Database, (revision: number) => void>();

/** The process's sync registers here to hear of its own commits without asking the database. */
export function onLocalCommit(db: Database, listener: (revision: number, change: LocalChange) => void): void {
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
  const pending = pendingOf(tx);
  for (const scope of change.scopes) pending.scopes.add(scope);
  for (const name of change.features ?? []) pending.features.add(name);
}

/**
 * Tells the sync how the model's copy of `feature` changes with what this transaction wrote, so
 * this process's caches take the change without reading it back. Used only when every feature
 * changed has patches, no other scope changed and every write was a deferred one whose writer
 * registered the patch (`Transaction.writes`); otherwise the features are read again.
 */
export function markPatched(tx: Transaction, feature: string, patch: FeaturePatch): void {
  const patches = pendingOf(tx).patches;
  patches.set(feature, [...(patches.get(feature) ?? []), patch]);
}

/**
 * Gives the sync `feature` as this transaction wrote it, whole (`record` is the read model's copy,
 * kept opaque here): this process's model takes it without reading it back, whatever else the
 * commit changed, unless a later change touches the feature before the model catches up.
 */
export function markWrittenWhole(tx: Transaction, feature: string, record: unknown): void {
  markChanged(tx, { scopes: ['features'], features: [feature] });
  pendingOf(tx).records.set(feature, record);
}

function pendingOf(tx: Transaction): Pending {
  return tx.local<Pending>(PENDING, () => {
    const state: Pending = { scopes: new Set(), features: new Set(), patches: new Map(), records: new Map() };
    let revision = 0;
    let known = false;
    let scopes: Scope[] = [];
    tx.beforeCommit({
      order: 100,
      async run(t) {
        if (state.scopes.size === 0) return;
        known =
          t.writes !== 'other' &&
          [...state.scopes].every((scope) => scope === 'features') &&
          [...state.features].every((name) => state.patches.has(name));
        scopes = [...state.scopes].sort();
        revision = await bumpConfigRevision(t, scopes, [...state.features].sort());
      },
    });
    tx.afterCommit(() => {
      if (revision === 0) return;
      commitListeners.get(tx.database)?.(revision, {
        scopes,
        features: [...state.features],
        ...(known ? { patches: state.patches } : {}),
        ...(state.records.size > 0 ? { records: state.records } : {}),
      });
    });
    return state;
  });
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
