import type { Queryable } from '../db/database.js';

/** A saved chart: the metric query, how it is drawn, and whose it is. */
export interface ChartConfig {
  id: string;
  featureName: string | null;
  metricName: string;
  timeRange: 'hour' | 'day' | 'week' | 'month';
  aggregationMode: 'rps' | 'count' | 'avg' | 'sum' | 'p50' | 'p95' | 'p99';
  labelSelectors: Record<string, string[]>;
  yAxisMin: 'auto' | 'zero';
  title: string | null;
  source: 'internal' | 'external';
  /** Whether a safeguard uses it. */
  guarded: boolean;
}

const COLUMNS = `c.id, c.feature_name AS "featureName", c.metric_name AS "metricName", c.time_range AS "timeRange",
  c.aggregation_mode AS "aggregationMode", c.label_selectors AS "labelSelectors", c.y_axis_min AS "yAxisMin",
  c.title, c.source, EXISTS (SELECT 1 FROM safeguards s WHERE s.config_id = c.id) AS guarded`;

/** The instance's charts (`feature` null) or a flag's, oldest first. */
export async function listConfigs(db: Queryable, feature: string | null): Promise<ChartConfig[]> {
  const { rows } = await db.query<ChartConfig>(
    `SELECT ${COLUMNS} FROM impact_metric_configs c
      WHERE c.feature_name IS NOT DISTINCT FROM $1 ORDER BY c.created_at, c.id`,
    [feature],
  );
  return rows;
}

export async function findConfig(db: Queryable, id: string): Promise<ChartConfig | undefined> {
  const { rows } = await db.query<ChartConfig>(
    `SELECT ${COLUMNS} FROM impact_metric_configs c WHERE c.id = $1`,
    [id],
  );
  return rows[0];
}

export async function countConfigs(db: Queryable, feature: string | null): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM impact_metric_configs WHERE feature_name IS NOT DISTINCT FROM $1',
    [feature],
  );
  return rows[0]!.n;
}

/** Writes the chart, new or in place of the one with its id. */
export async function saveConfig(db: Queryable, c: Omit<ChartConfig, 'guarded'>): Promise<void> {
  await db.query(
    `INSERT INTO impact_metric_configs
       (id, feature_name, metric_name, time_range, aggregation_mode, label_selectors, y_axis_min, title, source)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9)
     ON CONFLICT (id) DO UPDATE SET metric_name = EXCLUDED.metric_name, time_range = EXCLUDED.time_range,
       aggregation_mode = EXCLUDED.aggregation_mode, label_selectors = EXCLUDED.label_selectors,
       y_axis_min = EXCLUDED.y_axis_min, title = EXCLUDED.title, source = EXCLUDED.source`,
    [
      c.id,
      c.featureName,
      c.metricName,
      c.timeRange,
      c.aggregationMode,
      JSON.stringify(c.labelSelectors),
      c.yAxisMin,
      c.title,
      c.source,
    ],
  );
}

export async function deleteConfig(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM impact_metric_configs WHERE id = $1', [id]);
}
