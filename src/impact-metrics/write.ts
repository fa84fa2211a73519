import type { Database, Transaction } from '../db/database.js';
import type { Logger } from '../log.js';
import { ImpactMetricsBuffer, type MinutePoint, merged } from './buffer.js';
import { knownSeries, metricTypes, seriesKeyOf, type WriterMemory, writerMemory } from './known-series.js';
import type { MetricType, Observation } from './observations.js';
import { addPoints, markSeriesSeen, type PointRow, type Resolution } from './store.js';

const HOUR_MS = 3_600_000;

/** What a process remembers at most; past it, it starts again. */
const MAX_REMEMBERED = 10_000;

const sameBounds = (a: number[] | null, b: number[] | undefined) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b?.[i]);

/** The buffer SDKs' impact metrics go through to the tables, remembering the series it wrote. */
export function createImpactMetricsBuffer(ctx: { db: Database; log: Logger }): ImpactMetricsBuffer {
  const memory = writerMemory();
  return new ImpactMetricsBuffer((points) => writeImpactPoints(ctx.db, points, memory), ctx.log);
}

/**
 * Writes a batch of minute points in one transaction of a few statements: their metrics and series
 * made where the limits allow, then the minutes and hours. The buffer gives it a few dozen points
 * at a time (buffer.ts), so each table gets one statement. Answers how many points it refused (over
 * the limits of series, or of another type than their metric). A failed write forgets what was
 * remembered (retention may have removed a series).
 */
export async function writeImpactPoints(
  db: Database,
  points: MinutePoint[],
  memory = writerMemory(),
): Promise<number> {
  if (memory.series.size > MAX_REMEMBERED) memory.series.clear();
  try {
    return await writeBatch(db, points, memory);
  } catch (error) {
    memory.series.clear();
    memory.types.clear();
    throw error;
  }
}

async function writeBatch(db: Database, points: MinutePoint[], memory: WriterMemory): Promise<number> {
  return db.transaction(async (tx) => {
    const types = await metricTypes(tx, points, memory);
    const fitting = points.filter((p) => types.get(p.observation.metric) === p.observation.type);
    const series = await knownSeries(tx, fitting, memory);
    const rows: { type: MetricType; row: PointRow; observation: Observation }[] = [];
    for (const p of fitting) {
      const o = p.observation;
      const known = series.get(seriesKeyOf(o.metric, o.labelsKey));
      if (!known || (o.type === 'histogram' && !sameBounds(known.bounds, o.bounds))) continue;
      const row = {
        seriesId: known.id,
        at: new Date(p.minute),
        value: o.value,
        sum: o.sum ?? null,
        buckets: o.buckets ?? null,
      };
      rows.push({ type: o.type, row, observation: o });
    }
    await writeRows(tx, 'minutes', rows);
    await writeRows(tx, 'hours', hourly(rows));
    await markSeriesSeen(tx, [...new Set(rows.map((r) => r.row.seriesId))]);
    return points.length - rows.length;
  });
}

/** The minute points summed into the hours they fall in (a gauge's hour keeps its last minute). */
function hourly(rows: { type: MetricType; row: PointRow; observation: Observation }[]) {
  const hours = new Map<string, { type: MetricType; row: PointRow; observation: Observation }>();
  for (const r of [...rows].sort((a, b) => a.row.at.getTime() - b.row.at.getTime())) {
    const at = new Date(Math.floor(r.row.at.getTime() / HOUR_MS) * HOUR_MS);
    const key = `${r.row.seriesId}:${at.getTime()}`;
    const before = hours.get(key);
    const observation = before ? merged(before.observation, r.observation) : r.observation;
    hours.set(key, {
      type: r.type,
      observation,
      row: {
        ...r.row,
        at,
        value: observation.value,
        sum: observation.sum ?? null,
        buckets: observation.buckets ?? null,
      },
    });
  }
  return [...hours.values()];
}

async function writeRows(
  tx: Transaction,
  resolution: Resolution,
  rows: { type: MetricType; row: PointRow }[],
): Promise<void> {
  for (const type of ['counter', 'gauge', 'histogram'] as const) {
    const ofType = rows.filter((r) => r.type === type).map((r) => r.row);
    if (ofType.length > 0) await addPoints(tx, resolution, type, ofType);
  }
}
