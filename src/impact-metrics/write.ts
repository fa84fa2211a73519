import type { Database, Transaction } from '../db/database.js';
import type { Logger } from '../log.js';
import { ImpactMetricsBuffer, type MinutePoint, merged } from './buffer.js';
import type { MetricType, Observation } from './observations.js';
import {
  addPoints,
  ensureMetric,
  findSeriesId,
  insertSeries,
  markSeriesSeen,
  type PointRow,
  type Resolution,
} from './store.js';

const HOUR_MS = 3_600_000;

/**
 * What SDKs may store. Each token makes at most `perToken` series (a public frontend token
 * included), the instance holds at most `overall` series of at most `metrics` metrics: a series
 * keeps at most 2,880 minutes and 4,400 hours, so these bound the tables whatever clients send.
 * A sample of a series that cannot be made is dropped, and logged.
 */
export const IMPACT_LIMITS = { metrics: 200, perToken: 200, overall: 2000 };

interface Known {
  id: number;
  bounds: number[] | null;
}

const sameBounds = (a: number[] | null, b: number[] | undefined) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b?.[i]);

/** The buffer SDKs' impact metrics go through to the tables, remembering the series it wrote. */
export function createImpactMetricsBuffer(ctx: { db: Database; log: Logger }): ImpactMetricsBuffer {
  const memory = writerMemory();
  return new ImpactMetricsBuffer((points) => writeImpactPoints(ctx.db, ctx.log, points, memory), ctx.log);
}

/** Series and metric types found before: a report of known series costs no lookups. */
export interface WriterMemory {
  series: Map<string, Known>;
  types: Map<string, MetricType>;
}

/** What a process remembers at most; past it, it starts again. */
const MAX_REMEMBERED = 10_000;

export function writerMemory(): WriterMemory {
  return { series: new Map(), types: new Map() };
}

/**
 * Writes a batch of minute points: their metrics and series made where the limits allow, then the
 * minutes and hours. A failed write forgets what was remembered (retention may have removed a series).
 */
export async function writeImpactPoints(
  db: Database,
  log: Logger,
  points: MinutePoint[],
  memory = writerMemory(),
): Promise<void> {
  if (memory.series.size > MAX_REMEMBERED) memory.series.clear();
  try {
    await writeBatch(db, log, points, memory);
  } catch (error) {
    memory.series.clear();
    memory.types.clear();
    throw error;
  }
}

async function writeBatch(db: Database, log: Logger, points: MinutePoint[], memory: WriterMemory) {
  await db.transaction(async (tx) => {
    const types = await metricTypes(tx, points, memory.types);
    const series = new Map<string, Known | undefined>(memory.series);
    let refused = 0;
    const rows: { type: MetricType; row: PointRow; observation: Observation }[] = [];
    for (const p of points) {
      const o = p.observation;
      if (types.get(o.metric) !== o.type) {
        refused++;
        continue;
      }
      const key = `${o.metric}\u0000${o.labelsKey}`;
      if (!series.has(key)) {
        const found = await seriesFor(tx, p);
        series.set(key, found);
        if (found) tx.afterCommit(() => memory.series.set(key, found));
      }
      const known = series.get(key);
      if (!known || (o.type === 'histogram' && !sameBounds(known.bounds, o.bounds))) {
        refused++;
        continue;
      }
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
    if (refused > 0)
      log.warn({ refused }, 'impact metrics: samples over the limits of series or of another type dropped');
  });
}

async function metricTypes(
  tx: Transaction,
  points: MinutePoint[],
  known: Map<string, MetricType>,
): Promise<Map<string, MetricType>> {
  const types = new Map(known);
  for (const p of points) {
    const { metric: name, type, help } = p.observation;
    if (types.has(name)) continue;
    const stored = await ensureMetric(tx, { name, type, help }, IMPACT_LIMITS.metrics);
    if (stored) {
      types.set(name, stored.type);
      tx.afterCommit(() => known.set(name, stored.type));
    }
  }
  return types;
}

async function seriesFor(tx: Transaction, p: MinutePoint): Promise<Known | undefined> {
  const o = p.observation;
  return (
    (await findSeriesId(tx, o.metric, o.labelsKey)) ??
    insertSeries(
      tx,
      { metric: o.metric, labels: o.labels, labelsKey: o.labelsKey, token: p.token, bounds: o.bounds },
      IMPACT_LIMITS,
    )
  );
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
