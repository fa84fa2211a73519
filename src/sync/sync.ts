import type { Database, Queryable } from '../db/database.js';
import type { Logger } from '../log.js';
import { type ChangeSet, changeSet, type Follower, NOTHING_TO_READ } from './change-set.js';
import { onLocalCommit, onLocalMetricsCommit } from './changes.js';
import { LocalChanges } from './local-changes.js';
import { REVISION_CHANNEL, readChangesSince, readRevisions } from './store.js';

export type { ChangeSet, Follower };

/** A notification waits for an own commit's answer a turn of the loop, then 3 × 5 ms. */
const [NOTIFY_WAITS, NOTIFY_WAIT_MS] = [4, 5];

export interface SyncOptions {
  pollMs?: number;
}

/**
 * The one owner of "configuration revision → caches". It learns that the revision moved from this
 * process's own commits (at once), from NOTIFY (other processes on PostgreSQL) and by polling every
 * second whatever happens to notifications; then it reads what changed and every cache's part of
 * it in one read-only snapshot and swaps them in together. Caches keep their last good state while
 * the database is away: nothing that serves SDKs waits for it.
 */
export class ConfigSync {
  private applied = -1;
  private metrics = -1;
  private localCommitted = 0;
  private readonly local = new LocalChanges();
  /** The newest configuration revision another process announced. */
  private announced = 0;
  private readonly followers: Follower[] = [];
  private readonly metricsListeners: (() => void)[] = [];
  private waiters: { revision: number; resolve: () => void }[] = [];
  private running: Promise<void> | undefined;
  private again = false;
  private failing = false;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private stopped = false;
  /** When the caches were last confirmed to hold the newest revision (ms since the epoch). */
  lastConfirmedAt = 0;
  /** Whether the last attempt to reach the database succeeded. */
  databaseReachable = false;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly options: SyncOptions = {},
  ) {}

  /** The configuration revision every cache holds; -1 before the first load. */
  get revision(): number {
    return this.applied;
  }

  get ready(): boolean {
    return this.applied >= 0;
  }

  follow(follower: Follower): void {
    this.followers.push(follower);
  }

  /** Called after SDK usage counts were written, here or by another process. */
  onMetricsChange(listener: () => void): void {
    this.metricsListeners.push(listener);
  }

  /** Loads every cache, then follows the revision. A failed first load is retried by the poll. */
  async start(): Promise<void> {
    onLocalCommit(this.db, (revision, change) => {
      this.localCommitted = Math.max(this.localCommitted, revision);
      if (revision > this.applied) this.local.add(revision, change);
      void this.catchUp();
    });
    onLocalMetricsCommit(this.db, (revision) => this.metricsReached(revision));
    this.timer = setInterval(() => void this.poll(), this.options.pollMs ?? 1000);
    this.timer.unref();
    await this.catchUp();
    if (!this.hearsOthers) return;
    try {
      this.unlisten = await this.listen();
    } catch (error) {
      this.log.error({ err: error }, 'sync: cannot listen for changes; polling every second instead');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.unlisten?.();
    await this.running;
  }

  /** On the embedded database this process's own commits, heard as they happen, are all there are. */
  private get hearsOthers(): boolean {
    return this.db.kind !== 'embedded';
  }

  private listen(): Promise<() => Promise<void>> {
    return this.db.listen(REVISION_CHANNEL, (payload) => this.notified(payload));
  }

  /**
   * After an outage, listens on a new connection at once. The old one comes back by itself, but
   * its retries back off to half a minute, and until then every change would wait for the poll.
   * Should the new one fail, the old one goes on retrying. A change notified while neither
   * listened is read by the catch-up that follows.
   */
  private async listenAgain(): Promise<void> {
    if (!this.hearsOthers) return;
    const previous = this.unlisten;
    let next: () => Promise<void>;
    try {
      next = await this.listen();
    } catch (error) {
      this.log.warn({ err: error }, 'sync: cannot listen for changes yet; polling every second meanwhile');
      return;
    }
    if (this.stopped) {
      await next();
      return;
    }
    this.unlisten = next;
    await previous?.();
    void this.catchUp();
  }

  /**
   * Resolves once the caches hold every change this process has committed so far — or once an
   * attempt to read them failed: the change is committed either way, and its answer must leave.
   */
  settled(): Promise<void> {
    const revision = this.localCommitted;
    if (this.applied >= revision) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push({ revision, resolve });
      // A run under way already covers the commit, which asked for it (or for one more round).
      if (!this.running) void this.catchUp();
    });
  }

  /**
   * Whether the caches now hold exactly what the database holds, so a decision may be made on them
   * instead of a read: only where this process is the database's sole writer (the embedded database,
   * which one process holds at a time) and once every commit it made is in the caches. Elsewhere
   * another process may have committed a moment ago: false.
   */
  async holdsEverything(): Promise<boolean> {
    if (this.db.kind === 'embedded' && this.ready) await this.settled();
    return this.holdsEverythingNow();
  }

  /** As `holdsEverything`, without waiting for a catch-up under way (then false). */
  holdsEverythingNow(): boolean {
    return this.db.kind === 'embedded' && this.ready && !this.failing && this.applied >= this.localCommitted;
  }

  /**
   * A notification names the revision a commit reached (`config:N`, `metrics:N`). This process's
   * own commits are announced too, usually after it has already started catching up on them:
   * those, and anything older than what the caches hold, need no second read. A notification may
   * also arrive a moment before its commit's own answer: it waits a few milliseconds for it, so an
   * own commit is taken as its writer described it rather than read back.
   */
  private notified(payload: string, waited = 0): void {
    const [kind, number] = payload.split(':');
    const revision = Number(number);
    if (Number.isInteger(revision)) {
      if (kind === 'config' && revision <= Math.max(this.applied, this.localCommitted)) return;
      if (kind === 'metrics' && revision <= this.metrics) return;
      if (waited < NOTIFY_WAITS) {
        setTimeout(() => this.notified(payload, waited + 1), waited === 0 ? 0 : NOTIFY_WAIT_MS).unref();
        return;
      }
      if (kind === 'config') this.announced = Math.max(this.announced, revision);
    }
    void this.catchUp();
  }

  /** Reads the revisions (one cheap query) and catches up when either moved. */
  private async poll(): Promise<void> {
    if (this.running) return;
    try {
      const now = await readRevisions(this.db);
      if (now.config !== this.applied || now.metrics > this.metrics) await this.catchUp();
      else this.confirmed();
    } catch (error) {
      this.failed(error);
    }
  }

  /** Brings every cache to the newest revision; overlapping calls share one run, plus one more. */
  catchUp(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.step();
        } while (this.again);
        this.confirmed();
      } catch (error) {
        this.failed(error);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async step(): Promise<void> {
    const applied = this.applied;
    const known = this.local.since(applied, this.localCommitted);
    if (known) {
      for (const swap of await this.load(NOTHING_TO_READ, known)) swap();
      this.reached(known.revision);
      // Own commits only reach so far: a revision announced past them is read in the next round.
      if (this.announced > this.applied) this.again = true;
      return;
    }
    const read = await this.db.transaction(
      async (tx) => {
        const now = await readChangesSince(tx, Math.max(applied, 0));
        if (now.config === applied) return { now, swaps: [] };
        return { now, swaps: await this.load(tx, changeSet(now.config, applied, now.changes, this.local)) };
      },
      { isolation: 'repeatable read', readOnly: true },
    );
    for (const swap of read.swaps) swap();
    this.reached(read.now.config);
    this.metricsReached(read.now.metrics);
  }

  /** Every follower's part of the changes, read; the swaps to run together. */
  private async load(tx: Queryable, changes: ChangeSet): Promise<(() => void)[]> {
    const swaps: (() => void)[] = [];
    for (const follower of this.followers) {
      const swap = await follower.load(tx, changes);
      if (swap) swaps.push(swap);
    }
    return swaps;
  }

  private reached(revision: number): void {
    this.applied = revision;
    this.local.reached(revision);
    this.releaseWaiters(false);
  }

  /**
   * Tells the listeners once per new metrics revision, whichever way it was learned first. A
   * listener's failure is logged here: thrown into a commit's aftermath, it would make a written
   * batch look failed and be written twice.
   */
  private metricsReached(revision: number): void {
    if (revision <= this.metrics) return;
    this.metrics = revision;
    for (const listener of this.metricsListeners) {
      try {
        listener();
      } catch (error) {
        this.log.error({ err: error, revision }, 'sync: a cache of usage counts failed to follow them');
      }
    }
  }

  private releaseWaiters(all: boolean): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) {
      if (all || this.applied >= w.revision) w.resolve();
      else this.waiters.push(w);
    }
  }

  private confirmed(): void {
    this.lastConfirmedAt = Date.now();
    this.databaseReachable = true;
    if (this.failing) {
      this.failing = false;
      this.log.info({ revision: this.applied }, 'sync: the database is back; caches are up to date');
      void this.listenAgain();
    }
  }

  private failed(error: unknown): void {
    this.databaseReachable = false;
    this.releaseWaiters(true);
    if (this.failing) return;
    this.failing = true;
    this.log.error(
      { err: error, revision: this.applied },
      'sync: cannot read changes from the database; serving the last good configuration and retrying every second',
    );
  }
}
