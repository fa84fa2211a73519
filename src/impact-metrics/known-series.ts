import type { Transaction } from '../db/database.js';
import type { MinutePoint } from './buffer.js';
import type { MetricType } from './observations.js';
import { countSeries, insertMetrics, insertSeries, metricsNamed, seriesNamed } from './store.js';

/**
 * What SDKs may store. Each token makes at most `perToken` series (a public frontend token
 * included), the instance holds at most `overall` series of at most `metrics` metrics: a series
 * keeps at most 2,880 minutes and 4,400 hours, so these bound the tables whatever clients send.
 * (Processes writing at once may pass them by a batch each.) A sample of a series that cannot be
 * made is dropped, and logged.
 */
export const IMPACT_LIMITS = { metrics: 200, perToken: 200, overall: 2000 };

export interface Known {
  id: number;
  bounds: number[] | null;
}

/**
 * Series and metric types found before: a report of known series costs no lookups. And the tokens
 * that could make no more series, until when: series they report that are not known are dropped
 * without a lookup (a series another token made is known once any report of it was written).
 */
export interface WriterMemory {
  series: Map<string, Known>;
  types: Map<string, MetricType>;
  full: Map<string, number>;
}

/** How long a token that reached a limit is taken to be at it. */
const FULL_FOR_MS = 60_000;

export function writerMemory(): WriterMemory {
  return { series: new Map(), types: new Map(), full: new Map() };
}

export const seriesKeyOf = (metric: string, labelsKey: string) => `${metric}\u0000${labelsKey}`;

/**
 * The batch's metrics with their types as stored: those not known yet are added, while there is
 * room. A handful of statements, however many metrics the batch names.
 */
export async function metricTypes(
  tx: Transaction,
  points: MinutePoint[],
  memory: WriterMemory,
): Promise<Map<string, MetricType>> {
  const types = new Map(memory.types);
  const unknown = new Map<string, { name: string; type: MetricType; help: string }>();
  for (const { observation: o } of points) {
    if (!types.has(o.metric)) unknown.set(o.metric, { name: o.metric, type: o.type, help: o.help });
  }
  if (unknown.size === 0) return types;
  const names = [...unknown.keys()];
  const there = new Set((await metricsNamed(tx, names)).map((m) => m.name));
  const missing = [...unknown.values()].filter((m) => !there.has(m.name));
  if (missing.length > 0) await insertMetrics(tx, missing, IMPACT_LIMITS.metrics);
  for (const m of await metricsNamed(tx, names)) {
    types.set(m.name, m.type);
    tx.afterCommit(() => memory.types.set(m.name, m.type));
  }
  return types;
}

/**
 * The batch's series with their ids: those not known yet are looked up together, and those not
 * there made as their reporting token's, as many as its budget and the instance's allow.
 */
export async function knownSeries(
  tx: Transaction,
  points: MinutePoint[],
  memory: WriterMemory,
): Promise<Map<string, Known>> {
  const series = new Map(memory.series);
  const unknown = new Map<string, MinutePoint>();
  const now = Date.now();
  for (const p of points) {
    const key = seriesKeyOf(p.observation.metric, p.observation.labelsKey);
    // A token at a limit writes to the series known already, and looks up no others.
    if (!series.has(key) && !unknown.has(key) && (memory.full.get(p.token) ?? 0) <= now) unknown.set(key, p);
  }
  if (unknown.size === 0) return series;
  const learn = (found: Awaited<ReturnType<typeof seriesNamed>>) => {
    for (const s of found) {
      const key = seriesKeyOf(s.metric, s.labelsKey);
      const known = { id: s.id, bounds: s.bounds };
      series.set(key, known);
      unknown.delete(key);
      tx.afterCommit(() => memory.series.set(key, known));
    }
  };
  learn(
    await seriesNamed(
      tx,
      [...unknown.values()].map((p) => p.observation),
    ),
  );

  const byToken = new Map<string, MinutePoint[]>();
  for (const p of unknown.values()) byToken.set(p.token, [...(byToken.get(p.token) ?? []), p]);
  for (const [token, wanted] of byToken) {
    const { own, all } = await countSeries(tx, token);
    const room = Math.max(0, Math.min(IMPACT_LIMITS.perToken - own, IMPACT_LIMITS.overall - all));
    const made = wanted.slice(0, room).map((p) => p.observation);
    if (made.length < wanted.length) memory.full.set(token, Date.now() + FULL_FOR_MS);
    if (made.length === 0) continue;
    await insertSeries(tx, token, made);
    learn(await seriesNamed(tx, made));
  }
  return series;
}
