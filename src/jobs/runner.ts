import type { Database, Transaction } from '../db/database.js';
import type { Logger } from '../log.js';
import { claimDueJob, finishJob, type Job, postponeJob, recordJobFailure } from './store.js';

const afterMs = (ms: number) => new Date(Date.now() + ms);

/** What a kind of job does, and what its failure means. */
export interface JobKind {
  /** Does the job's work: every transaction it makes joins the one that claimed the job (a recurring job's: none). */
  run(job: Job): Promise<void>;
  /** Records what the failure means to the kind (in the transaction that records the failure). */
  failed?(tx: Transaction, job: Job, reason: string): Promise<void>;
  /** How long to wait before the attempt after `attempts` failed ones; undefined: none is made. */
  retryAfterMs?(attempts: number): number | undefined;
  /**
   * A job that comes back: the process that takes it moves it this long ahead at once, then runs
   * it outside any transaction (a check of many things, some of them slow, holds no lock meanwhile).
   * One job of the kind exists however many processes run it; killed while running, a process
   * leaves it for the next time. Its work must bear being done twice.
   */
  everyMs?: number;
}

/**
 * The one runner of background jobs (scheduled change requests, and what comes after them), on
 * every process: it takes a due job with a row lock that other processes skip, and runs it in the
 * transaction that holds the lock, which records it done. Killed while running one, a process
 * leaves no trace of it: the job is due again for whichever process looks next. A failed job is
 * retried when its kind says so, with the reason recorded. Looks every `pollMs`, and sooner for a
 * job this process scheduled.
 */
export class JobRunner {
  private readonly kinds = new Map<string, JobKind>();
  private timer: NodeJS.Timeout | undefined;
  private readonly soon = new Set<NodeJS.Timeout>();
  private running: Promise<void> | undefined;
  private again = false;
  private started = false;
  private stopped = false;
  private failing = false;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly pollMs = 1000,
  ) {}

  register(kind: string, handler: JobKind): void {
    this.kinds.set(kind, handler);
  }

  start(): void {
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.pollMs).unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const t of this.soon) clearTimeout(t);
    await this.running;
  }

  /** A job is due at `at` (committed by this process): look then, rather than at the next poll. */
  expect(at: Date): void {
    const wait = at.getTime() - Date.now();
    if (wait >= this.pollMs) return;
    const t = setTimeout(
      () => {
        this.soon.delete(t);
        this.wake();
      },
      Math.max(0, wait),
    ).unref();
    this.soon.add(t);
  }

  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        while (!this.stopped && (await this.runOne())) {}
      } while (this.again && !this.stopped);
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.log.error({ err: error }, 'jobs: cannot take or record jobs; trying again');
      this.failing = true;
    }
  }

  /** Runs the first due job; false when none is due. */
  private async runOne(): Promise<boolean> {
    let claimed: Job | undefined;
    let recurring: Job | undefined;
    try {
      await this.db.atomically(async () => {
        claimed = await this.db.transaction((tx) => claimDueJob(tx, [...this.kinds.keys()]));
        if (!claimed) return;
        const job = claimed;
        const kind = this.kinds.get(job.kind)!;
        if (kind.everyMs !== undefined) {
          await this.db.transaction((tx) => postponeJob(tx, job.id, afterMs(kind.everyMs!)));
          recurring = job;
          return;
        }
        await kind.run(job);
        await this.db.transaction((tx) => finishJob(tx, job.id));
      });
    } catch (error) {
      if (!claimed) throw error;
      await this.recordFailure(claimed, error);
    }
    if (recurring) await this.runRecurring(recurring);
    return claimed !== undefined;
  }

  private async runRecurring(job: Job): Promise<void> {
    try {
      await this.kinds.get(job.kind)!.run(job);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.warn({ job: job.id, kind: job.kind, key: job.key, reason }, 'jobs: a recurring job failed');
    }
  }

  private async recordFailure(job: Job, error: unknown): Promise<void> {
    const kind = this.kinds.get(job.kind)!;
    const reason = error instanceof Error ? error.message : String(error);
    const delay = kind.retryAfterMs?.(job.attempts + 1);
    const retryAt = delay === undefined ? null : afterMs(delay);
    this.log.warn({ job: job.id, kind: job.kind, key: job.key, reason }, 'jobs: a job failed');
    await this.db.transaction(async (tx) => {
      if (await recordJobFailure(tx, job, reason, retryAt)) await kind.failed?.(tx, job, reason);
    });
    if (retryAt) this.expect(retryAt);
  }
}
