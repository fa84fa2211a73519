import type { Logger } from '../log.js';
import type { Observation } from './observations.js';

const MINUTE_MS = 60_000;

/** A series' observations of one minute, summed (counters, histograms) or the last (gauges). */
export interface MinutePoint {
  /** Who reported the series first in this batch: the token whose budget a new series takes. */
  token: string;
  observation: Observation;
  minute: number;
}

/** Points waiting to be written at most; reports beyond them are dropped until the next write. */
const MAX_PENDING = 2_500;

/**
 * Points written in one transaction at most. On the embedded database a transaction holds every
 * other query back until it ends: some 200 points of the largest reports written in one took
 * 300 ms, which every request meanwhile waited out.
 */
const POINTS_PER_WRITE = 50;

/**
 * Impact metrics summed in memory per series and minute, written at most once a second (and when
 * the server stops): a burst of reports costs a few short transactions. They are measurements, not
 * configuration: a write that fails is logged and dropped rather than retried.
 */
export class ImpactMetricsBuffer {
  private pending = new Map<string, MinutePoint>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(
    /** Writes the points in one transaction; answers how many it refused. */
    private readonly write: (points: MinutePoint[]) => Promise<number>,
    private readonly log: Logger,
    private readonly delayMs = 1000,
    private readonly pointsPerWrite = POINTS_PER_WRITE,
  ) {}

  add(token: string, observations: readonly Observation[], at = Date.now()): void {
    const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    for (const o of observations) {
      const key = `${o.metric}\u0000${o.labelsKey}\u0000${minute}`;
      const before = this.pending.get(key);
      if (before) {
        before.observation = merged(before.observation, o);
      } else if (this.pending.size < MAX_PENDING) {
        this.pending.set(key, { token, observation: o, minute });
      } else {
        this.dropped++;
      }
    }
    this.timer ??= setTimeout(() => void this.flush(), this.delayMs).unref();
  }

  /** Writes what is pending; resolves when it is written (or dropped). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // Oldest first: a gauge's hour keeps the last minute written.
    const points = [...this.pending.values()].sort((a, b) => a.minute - b.minute);
    this.pending = new Map();
    if (this.dropped > 0) {
      this.log.warn(
        { dropped: this.dropped },
        'impact metrics: too many waiting to be written; some dropped',
      );
      this.dropped = 0;
    }
    this.writing = this.writing.then(() => this.writeInChunks(points));
    return this.writing;
  }

  private async writeInChunks(points: MinutePoint[]): Promise<void> {
    let refused = 0;
    for (let start = 0; start < points.length; start += this.pointsPerWrite) {
      try {
        refused += await this.write(points.slice(start, start + this.pointsPerWrite));
      } catch (error) {
        // The rest would most likely fail as well: one message for all of them.
        const left = points.length - start;
        this.log.error({ err: error, points: left }, 'impact metrics: cannot write; dropped');
        break;
      }
    }
    if (refused > 0) {
      this.log.warn(
        { refused },
        'impact metrics: samples over the limits of series or of another type dropped',
      );
    }
  }

  close(): Promise<void> {
    return this.flush();
  }
}

/** Two observations of a series in one minute as one. */
export function merged(a: Observation, b: Observation): Observation {
  if (a.type !== b.type) return b;
  if (a.type === 'gauge') return b;
  if (a.type === 'counter') return { ...a, value: a.value + b.value };
  const sameBounds = a.bounds?.length === b.bounds?.length && a.bounds?.every((x, i) => x === b.bounds?.[i]);
  if (!sameBounds) return b;
  return {
    ...a,
    value: a.value + b.value,
    sum: (a.sum ?? 0) + (b.sum ?? 0),
    buckets: a.buckets?.map((n, i) => n + (b.buckets?.[i] ?? 0)),
  };
}
