import { isDataError } from '../db/errors.js';
import type { Logger } from '../log.js';
import { chunksOf, type HourlyCount, halves, type MetricsBatch, rowsOf, type SeenInstance } from './batch.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The most one report adds to a count. No SDK evaluates a flag a trillion times in one interval,
 * and under this cap a sum in memory takes thousands of reports to reach its own ceiling.
 */
export const MAX_REPORTED_COUNT = 1_000_000_000_000;

/** Rows waiting in memory while the database is slow or away; reports beyond them are dropped. */
const MAX_PENDING_ROWS = 100_000;

/**
 * Rows (a count's variants each one) written in one transaction at most: a flush of many rows is
 * many short transactions, so the other queries (on the embedded database, every other query) get
 * turns between them.
 */
const MAX_ROWS_PER_WRITE = 250;

/**
 * Flags no feature answers to, remembered per flush at most. Their counts cannot be stored (only
 * that they were reported: metrics/usage-store.ts keeps 10,000 at most), so each is kept without
 * counts or variants; names made up by the thousand cost no more than this.
 */
const MAX_UNKNOWN_PER_FLUSH = 1000;

export interface ToggleCounts {
  yes: number;
  no: number;
  variants?: Record<string, number>;
}

export interface MetricsReport {
  appName: string;
  /** The SDK instance that counted, seen now; none when a relay (Edge) sums many instances. */
  instanceId?: string;
  environment: string;
  clientIp?: string;
  sdkVersion?: string;
  sdkType?: 'backend' | 'frontend';
  start: Date;
  toggles: Record<string, ToggleCounts>;
}

export interface MetricsBufferOptions {
  log: Logger;
  /** How long reports are summed before they are written. */
  delayMs?: number;
  /** Rows (counts, variant counts, instances) kept at most; more are dropped and logged. */
  maxPendingRows?: number;
  /** Rows given to one call of `write` at most. */
  maxRowsPerWrite?: number;
  /**
   * Whether a feature of this name exists (archived or not). Counts for other names are kept
   * only as sightings, a bounded number of them. Absent: every name is taken as a feature's.
   */
  isFeature?: (name: string) => boolean;
}

const clamp = (n: number) => Math.min(n, MAX_REPORTED_COUNT);

/** Stays exact: a sum that would pass 2^53 stops there instead of losing precision. */
const saturatingSum = (a: number, b: number) => Math.min(a + b, Number.MAX_SAFE_INTEGER);

// The names cannot hold NUL (the request schema refuses it), so the keys are unambiguous.
const countKey = (c: HourlyCount) =>
  `${c.featureName}\u0000${c.appName}\u0000${c.environment}\u0000${c.hour.getTime()}`;
const instanceKey = (i: SeenInstance) => `${i.appName}\u0000${i.environment}\u0000${i.instanceId}`;

/**
 * SDK metrics summed in memory and written in one batch at most once a second (and when the server
 * stops), so a burst of thousands of posts costs a handful of transactions. No report can stop the
 * others from being written: counts are capped and sums saturate, rows the database refuses are
 * found and dropped, and while the database is away the rows wait, up to a bound.
 */
export class MetricsBuffer {
  private counts = new Map<string, HourlyCount>();
  private instances = new Map<string, SeenInstance>();
  private pendingRows = 0;
  private dropped = 0;
  private failing = false;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly log: Logger;
  private readonly delayMs: number;
  private readonly maxPendingRows: number;
  private readonly maxRowsPerWrite: number;
  private readonly isFeature: (name: string) => boolean;
  private unknownPending = 0;

  constructor(
    private readonly write: (batch: MetricsBatch) => Promise<void>,
    options: MetricsBufferOptions,
  ) {
    this.log = options.log;
    this.delayMs = options.delayMs ?? 1000;
    this.maxPendingRows = options.maxPendingRows ?? MAX_PENDING_ROWS;
    this.maxRowsPerWrite = options.maxRowsPerWrite ?? MAX_ROWS_PER_WRITE;
    this.isFeature = options.isFeature ?? (() => true);
  }

  add(report: MetricsReport): void {
    const hour = new Date(Math.floor(report.start.getTime() / HOUR_MS) * HOUR_MS);
    for (const [featureName, counts] of Object.entries(report.toggles)) {
      if (!this.isFeature(featureName)) {
        this.addUnknown(featureName, report.appName, report.environment, hour, counts);
        continue;
      }
      this.addCount({
        featureName,
        appName: report.appName,
        environment: report.environment,
        hour,
        yes: clamp(counts.yes),
        no: clamp(counts.no),
        variants: new Map(Object.entries(counts.variants ?? {}).map(([name, n]) => [name, clamp(n)])),
      });
    }
    if (report.instanceId !== undefined) {
      this.addInstance({
        appName: report.appName,
        instanceId: report.instanceId,
        environment: report.environment,
        clientIp: report.clientIp,
        sdkVersion: report.sdkVersion,
        sdkType: report.sdkType,
      });
    }
    this.schedule();
  }

  /** Room for `rows` more rows, or they are counted as dropped. */
  private reserve(rows: number): boolean {
    if (this.pendingRows + rows > this.maxPendingRows) {
      this.dropped += rows;
      return false;
    }
    this.pendingRows += rows;
    return true;
  }

  private addCount(c: HourlyCount): void {
    const key = countKey(c);
    const sum = this.counts.get(key);
    if (!sum) {
      if (this.reserve(1 + c.variants.size)) this.counts.set(key, c);
      return;
    }
    sum.yes = saturatingSum(sum.yes, c.yes);
    sum.no = saturatingSum(sum.no, c.no);
    for (const [name, n] of c.variants) {
      const before = sum.variants.get(name);
      if (before === undefined && !this.reserve(1)) continue;
      sum.variants.set(name, saturatingSum(before ?? 0, n));
    }
  }

  /** A sighting of a name no feature has: counted as seen (yes or no), nothing more. */
  private addUnknown(featureName: string, appName: string, environment: string, hour: Date, c: ToggleCounts) {
    if (c.yes <= 0 && c.no <= 0) return;
    const sighting = { featureName, appName, environment, hour, yes: 1, no: 0, variants: new Map() };
    const key = countKey(sighting);
    if (this.counts.has(key) || this.unknownPending >= MAX_UNKNOWN_PER_FLUSH || !this.reserve(1)) return;
    this.unknownPending++;
    this.counts.set(key, sighting);
  }

  private addInstance(i: SeenInstance): void {
    const key = instanceKey(i);
    if (this.instances.has(key) || this.reserve(1)) this.instances.set(key, i);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes what has been summed so far; waits for a write already under way first. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.reportDropped();
    if (this.counts.size === 0 && this.instances.size === 0) return;
    const batch: MetricsBatch = {
      counts: [...this.counts.values()],
      instances: [...this.instances.values()],
    };
    this.counts = new Map();
    this.instances = new Map();
    this.pendingRows = 0;
    this.unknownPending = 0;
    this.flushing = this.writeInChunks(batch).finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private async writeInChunks(batch: MetricsBatch): Promise<void> {
    for (const chunk of chunksOf(batch, this.maxRowsPerWrite)) await this.writeIsolating(chunk);
  }

  /**
   * When the database refuses some rows, each half is written on its own, down to single rows, so
   * only the refused ones are lost (a few rows among thousands cost a few dozen small writes).
   * When it cannot write at all, the rows wait for the next flush.
   */
  private async writeIsolating(batch: MetricsBatch): Promise<void> {
    try {
      await this.write(batch);
      this.writing();
    } catch (error) {
      if (!isDataError(error)) this.keep(batch, error);
      else if (rowsOf(batch) === 1) this.drop(batch, error);
      else for (const half of halves(batch)) await this.writeIsolating(half);
    }
  }

  private writing(): void {
    if (!this.failing) return;
    this.failing = false;
    this.log.info('metrics: usage counts are being written again');
  }

  private keep(batch: MetricsBatch, error: unknown): void {
    // Once per outage: the flushes that follow would repeat it every second.
    if (!this.failing) {
      this.failing = true;
      this.log.error(
        { err: error, counts: batch.counts.length, instances: batch.instances.length },
        `metrics: cannot write usage counts; keeping up to ${this.maxPendingRows} rows in memory and trying again every ${this.delayMs} ms`,
      );
    }
    for (const c of batch.counts) this.addCount(c);
    // An instance reported again meanwhile is newer than the one kept.
    for (const i of batch.instances) if (!this.instances.has(instanceKey(i))) this.addInstance(i);
    this.schedule();
  }

  private drop(batch: MetricsBatch, error: unknown): void {
    for (const c of batch.counts) {
      this.log.error(
        {
          err: error,
          appName: c.appName,
          featureName: c.featureName,
          environment: c.environment,
          hour: c.hour.toISOString(),
        },
        'metrics: the database refused these usage counts; dropped them',
      );
    }
    for (const i of batch.instances) {
      this.log.error(
        { err: error, appName: i.appName, instanceId: i.instanceId, environment: i.environment },
        'metrics: the database refused this SDK instance; dropped it',
      );
    }
  }

  private reportDropped(): void {
    if (this.dropped === 0) return;
    this.log.error(
      { dropped: this.dropped, maxPendingRows: this.maxPendingRows },
      'metrics: dropped reported rows: too many were already waiting to be written',
    );
    this.dropped = 0;
  }

  /** Stops the timer and writes everything still in memory. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
    // A failed last write schedules a retry that must not outlive the server.
    clearTimeout(this.timer);
    this.timer = undefined;
    this.reportDropped();
    if (this.pendingRows > 0) {
      this.log.error(
        { rows: this.pendingRows },
        'metrics: stopping with usage counts that could not be written; they are lost',
      );
    }
  }
}
