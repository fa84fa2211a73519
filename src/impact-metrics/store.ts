import type { Queryable } from '../db/database.js';
import type { MetricType } from './observations.js';

export interface StoredMetric {
  name: string;
  type: MetricType;
  help: string;
}

export interface StoredSeries {
  id: number;
  labels: Record<string, string>;
  bounds: number[] | null;
}

/** A period's point of a series (a minute's or an hour's). */
export interface PointRow {
  seriesId: number;
  at: Date;
  value: number;
  sum: number | null;
  buckets: number[] | null;
}

export type Resolution = 'minutes' | 'hours';
const TABLES = { minutes: 'impact_metric_minutes', hours: 'impact_metric_hours' } as const;

export async function listMetrics(db: Queryable): Promise<StoredMetric[]> {
  const { rows } = await db.query<StoredMetric>('SELECT name, type, help FROM impact_metrics ORDER BY name');
  return rows;
}

export async function findMetric(db: Queryable, name: string): Promise<StoredMetric | undefined> {
  const { rows } = await db.query<StoredMetric>(
    'SELECT name, type, help FROM impact_metrics WHERE name = $1',
    [name],
  );
  return rows[0];
}

/** Of these metrics, those there are, as stored. */
export async function metricsNamed(db: Queryable, names: string[]): Promise<StoredMetric[]> {
  const { rows } = await db.query<StoredMetric>(
    'SELECT name, type, help FROM impact_metrics WHERE name = ANY($1::text[])',
    [names],
  );
  return rows;
}

/** Adds the metrics (none there yet), as many as there is room for under `max` in all. */
export async function insertMetrics(db: Queryable, metrics: StoredMetric[], max: number): Promise<void> {
  await db.query(
    `INSERT INTO impact_metrics (name, type, help)
     SELECT n, t, h FROM unnest($1::text[], $2::text[], $3::text[]) AS x(n, t, h)
      LIMIT greatest(0, $4 - (SELECT count(*) FROM impact_metrics))
     ON CONFLICT (name) DO NOTHING`,
    [metrics.map((m) => m.name), metrics.map((m) => m.type), metrics.map((m) => m.help), max],
  );
}

export interface SeriesKey {
  metric: string;
  labelsKey: string;
}

/** Of these series, those there are, with their ids and bounds. */
export async function seriesNamed(
  db: Queryable,
  keys: SeriesKey[],
): Promise<(SeriesKey & { id: number; bounds: number[] | null })[]> {
  const { rows } = await db.query<SeriesKey & { id: number; bounds: number[] | null }>(
    `SELECT s.id::int AS id, s.metric, s.labels_key AS "labelsKey", s.bounds
       FROM impact_metric_series s
       JOIN unnest($1::text[], $2::text[]) AS k(metric, labels_key)
         ON s.metric = k.metric AND s.labels_key = k.labels_key`,
    [keys.map((k) => k.metric), keys.map((k) => k.labelsKey)],
  );
  return rows;
}

/** How many series the token made, and how many there are in all. */
export async function countSeries(db: Queryable, token: string): Promise<{ own: number; all: number }> {
  const { rows } = await db.query<{ own: number; all: number }>(
    `SELECT count(*) FILTER (WHERE token = $1)::int AS own, count(*)::int AS "all" FROM impact_metric_series`,
    [token],
  );
  return rows[0]!;
}

/** Adds the series (none there yet) as the token's. */
export async function insertSeries(
  db: Queryable,
  token: string,
  series: (SeriesKey & { labels: Record<string, string>; bounds?: number[] })[],
): Promise<void> {
  await db.query(
    `INSERT INTO impact_metric_series (metric, labels, labels_key, token, bounds)
     SELECT m, l::jsonb, k, $4, CASE WHEN b = '' THEN NULL ELSE b::float8[] END
       FROM unnest($1::text[], $2::text[], $3::text[], $5::text[]) AS x(m, l, k, b)
     ON CONFLICT (metric, labels_key) DO NOTHING`,
    [
      series.map((s) => s.metric),
      series.map((s) => JSON.stringify(s.labels)),
      series.map((s) => s.labelsKey),
      token,
      series.map((s) => (s.bounds ? `{${s.bounds.join(',')}}` : '')),
    ],
  );
}

export async function markSeriesSeen(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length > 0) {
    await db.query('UPDATE impact_metric_series SET last_seen_at = now() WHERE id = ANY($1::bigint[])', [
      ids,
    ]);
  }
}

// How a point already written takes another of its period: a counter's and a histogram's add up,
// a gauge's last value wins.
const MERGE: Record<MetricType, string> = {
  counter: 'value = t.value + EXCLUDED.value',
  gauge: 'value = EXCLUDED.value',
  histogram: `value = t.value + EXCLUDED.value, sum = coalesce(t.sum, 0) + coalesce(EXCLUDED.sum, 0),
    buckets = CASE WHEN cardinality(t.buckets) = cardinality(EXCLUDED.buckets)
      THEN ARRAY(SELECT a + b FROM unnest(t.buckets, EXCLUDED.buckets) AS x(a, b)) ELSE EXCLUDED.buckets END`,
};

/** Adds the points of one type to the minutes or hours they fall in. */
export async function addPoints(
  db: Queryable,
  resolution: Resolution,
  type: MetricType,
  points: readonly PointRow[],
): Promise<void> {
  const table = resolution === 'minutes' ? 'impact_metric_minutes' : 'impact_metric_hours';
  await insertPoints(db, table, type, points);
}

async function insertPoints(
  db: Queryable,
  table: 'impact_metric_minutes' | 'impact_metric_hours',
  type: MetricType,
  points: readonly PointRow[],
): Promise<void> {
  const params: unknown[] = [];
  const values = points.map((p) => {
    params.push(p.seriesId, p.at, p.value, p.sum, p.buckets);
    const n = params.length;
    return `($${n - 4}::bigint, $${n - 3}::timestamptz, $${n - 2}::float8, $${n - 1}::float8, $${n}::float8[])`;
  });
  await db.query(
    `INSERT INTO ${table} AS t (series_id, at, value, sum, buckets) VALUES ${values.join(', ')}
     ON CONFLICT (series_id, at) DO UPDATE SET ${MERGE[type]}`,
    params,
  );
}

export async function seriesOf(db: Queryable, metric: string): Promise<StoredSeries[]> {
  const { rows } = await db.query<StoredSeries>(
    'SELECT id::int AS id, labels, bounds FROM impact_metric_series WHERE metric = $1 ORDER BY id',
    [metric],
  );
  return rows;
}

/**
 * The points of these series from `from` on, oldest first, summed per series and step of
 * `stepSeconds` counted from the epoch — or over the whole window, at `from`, without a step — so a
 * chart of months reads a point per series and day: a counter's increases and a histogram's
 * observations added up, a gauge's last value.
 */
export async function pointsOf(
  db: Queryable,
  resolution: Resolution,
  type: MetricType,
  seriesIds: number[],
  from: Date,
  stepSeconds?: number,
): Promise<PointRow[]> {
  if (seriesIds.length === 0) return [];
  const table = TABLES[resolution];
  const step =
    stepSeconds === undefined
      ? '$2::timestamptz'
      : `to_timestamp(floor(extract(epoch FROM at) / ${Math.floor(stepSeconds)}) * ${Math.floor(stepSeconds)})`;
  if (type === 'histogram') {
    // Each step's observations of a series: counts and sums added, and its buckets bound by bound.
    const { rows } = await db.query<PointRow>(
      `WITH p AS (SELECT series_id, ${step} AS at, value, sum, buckets FROM ${table}
                   WHERE series_id = ANY($1::bigint[]) AND at >= $2)
       SELECT series_id::int AS "seriesId", at, sum(value) AS value, sum(sum) AS sum,
              ARRAY(SELECT sum(b.v) FROM p q, unnest(q.buckets) WITH ORDINALITY AS b(v, i)
                     WHERE q.series_id = p.series_id AND q.at = p.at GROUP BY b.i ORDER BY b.i) AS buckets
         FROM p GROUP BY series_id, at ORDER BY at`,
      [seriesIds, from],
    );
    return rows;
  }
  const value = type === 'counter' ? 'sum(value)' : '(array_agg(value ORDER BY at DESC))[1]';
  const { rows } = await db.query<PointRow>(
    `SELECT series_id::int AS "seriesId", ${step} AS at, ${value} AS value, NULL::float8 AS sum, NULL::float8[] AS buckets
       FROM ${table} WHERE series_id = ANY($1::bigint[]) AND at >= $2 GROUP BY 1, 2 ORDER BY 2`,
    [seriesIds, from],
  );
  return rows;
}

/** Every series' id, by metric name. */
export async function seriesIdsByMetric(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    'SELECT s.id::int AS id FROM impact_metric_series s ORDER BY s.metric, s.id',
  );
  return rows.map((r) => r.id);
}

/** These series with their whole hourly history summed: what the Prometheus text exposes. */
export async function seriesTotals(db: Queryable, ids: number[]) {
  const { rows } = await db.query<{
    metric: string;
    type: MetricType;
    help: string;
    labels: Record<string, string>;
    bounds: number[] | null;
    total: number;
    sum: number | null;
    last: number | null;
    buckets: number[] | null;
  }>(
    `SELECT m.name AS metric, m.type, m.help, s.labels, s.bounds,
            coalesce(sum(h.value), 0) AS total, sum(h.sum) AS sum,
            (SELECT value FROM impact_metric_hours WHERE series_id = s.id ORDER BY at DESC LIMIT 1) AS last,
            CASE WHEN m.type = 'histogram' THEN ARRAY(
              SELECT coalesce(sum(b.v), 0) FROM impact_metric_hours hh, unnest(hh.buckets) WITH ORDINALITY AS b(v, i)
               WHERE hh.series_id = s.id GROUP BY b.i ORDER BY b.i) END AS buckets
       FROM impact_metrics m JOIN impact_metric_series s ON s.metric = m.name
       LEFT JOIN impact_metric_hours h ON h.series_id = s.id
      WHERE s.id = ANY($1::bigint[])
      GROUP BY m.name, m.type, m.help, s.id ORDER BY m.name, s.id`,
    [ids],
  );
  return rows;
}

/** Forgets minutes and hours older than their retention, and series no report mentioned since `seriesBefore`. */
export async function deleteOldImpactMetrics(
  db: Queryable,
  cutoffs: { minutes: Date; hours: Date; series: Date },
): Promise<number> {
  const minutes = await db.query('DELETE FROM impact_metric_minutes WHERE at < $1', [cutoffs.minutes]);
  const hours = await db.query('DELETE FROM impact_metric_hours WHERE at < $1', [cutoffs.hours]);
  const series = await db.query('DELETE FROM impact_metric_series WHERE last_seen_at < $1', [cutoffs.series]);
  return minutes.rowCount + hours.rowCount + series.rowCount;
}

/** Registers a metric before any SDK reports it (so charts and safeguards can name it). */
export async function registerMetric(db: Queryable, metric: StoredMetric): Promise<StoredMetric | undefined> {
  await db.query(
    `INSERT INTO impact_metrics (name, type, help) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET help = CASE WHEN EXCLUDED.help = '' THEN impact_metrics.help ELSE EXCLUDED.help END
     WHERE impact_metrics.type = EXCLUDED.type`,
    [metric.name, metric.type, metric.help],
  );
  return findMetric(db, metric.name);
}
