import type { ChangeSet } from './change-set.js';
import type { FeaturePatch, LocalChange, Scope } from './changes.js';
import type { StoredChange } from './store.js';

/** Own commits kept for the caches at most: should they fall far behind, they catch up by reading. */
const MAX_KEPT = 1000;

/** This process's own commits that its caches do not hold yet, as their writers described them. */
export class LocalChanges {
  private readonly byRevision = new Map<number, LocalChange>();

  add(revision: number, change: LocalChange): void {
    this.byRevision.set(revision, change);
    if (this.byRevision.size > MAX_KEPT)
      this.byRevision.delete(this.byRevision.keys().next().value as number);
  }

  /** The caches hold `revision` now. */
  reached(revision: number): void {
    for (const r of this.byRevision.keys()) if (r <= revision) this.byRevision.delete(r);
  }

  /**
   * The changes after `applied` up to `last`, when each is one of this process's own commits (none
   * from another process in between) and its writers knew everything it changed: the caches then
   * take them without a read.
   */
  since(applied: number, last: number): ChangeSet | undefined {
    if (applied < 0 || last <= applied) return undefined;
    const scopes = new Set<Scope>();
    const features = new Set<string>();
    const patches = new Map<string, FeaturePatch[]>();
    for (let revision = applied + 1; revision <= last; revision++) {
      const change = this.byRevision.get(revision);
      if (!change?.patches) return undefined;
      for (const scope of change.scopes) scopes.add(scope);
      for (const name of change.features) features.add(name);
      for (const [name, list] of change.patches) patches.set(name, [...(patches.get(name) ?? []), ...list]);
    }
    return { revision: last, full: false, scopes, features, patches };
  }

  /**
   * The features that this process's own commits among `changes` (read back, in order) gave
   * whole, each as its last such commit wrote it — but those a later change touched, here or in
   * another process: that one's copy must be read.
   */
  recordsAmong(changes: readonly StoredChange[]): Map<string, unknown> {
    const records = new Map<string, unknown>();
    for (const change of changes) {
      for (const name of change.features) records.delete(name);
      for (const [name, record] of this.byRevision.get(change.revision)?.records ?? [])
        records.set(name, record);
    }
    return records;
  }
}
