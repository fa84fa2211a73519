import type { Queryable } from '../../db/database.js';

export interface Safeguard {
  id: string;
  configId: string;
  releasePlanId: string | null;
  featureName: string;
  environment: string;
  operator: '>' | '<';
  threshold: number;
  armedAt: Date;
  triggeredAt: Date | null;
  metricName: string;
  timeRange: 'hour' | 'day' | 'week' | 'month';
  aggregationMode: 'rps' | 'count' | 'avg' | 'sum' | 'p50' | 'p95' | 'p99';
  labelSelectors: Record<string, string[]>;
  source: 'internal' | 'external';
}

const COLUMNS = `s.id, s.config_id AS "configId", s.release_plan_id AS "releasePlanId", s.feature_name AS "featureName",
  s.environment, s.operator, s.threshold, s.armed_at AS "armedAt", s.triggered_at AS "triggeredAt",
  c.metric_name AS "metricName", c.time_range AS "timeRange", c.aggregation_mode AS "aggregationMode",
  c.label_selectors AS "labelSelectors", c.source`;
const FROM = 'safeguards s JOIN impact_metric_configs c ON c.id = s.config_id';

export async function safeguardOfPlan(db: Queryable, planId: string): Promise<Safeguard | undefined> {
  const { rows } = await db.query<Safeguard>(`SELECT ${COLUMNS} FROM ${FROM} WHERE s.release_plan_id = $1`, [
    planId,
  ]);
  return rows[0];
}

/** Every safeguard of the feature: its environments' own and its plans'. */
export async function safeguardsOfFeature(db: Queryable, feature: string): Promise<Safeguard[]> {
  const { rows } = await db.query<Safeguard>(`SELECT ${COLUMNS} FROM ${FROM} WHERE s.feature_name = $1`, [
    feature,
  ]);
  return rows;
}

export async function safeguardOfEnvironment(
  db: Queryable,
  feature: string,
  environment: string,
): Promise<Safeguard | undefined> {
  const { rows } = await db.query<Safeguard>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE s.feature_name = $1 AND s.environment = $2 AND s.release_plan_id IS NULL`,
    [feature, environment],
  );
  return rows[0];
}

/** Every safeguard, for the check. */
export async function allSafeguards(db: Queryable): Promise<Safeguard[]> {
  const { rows } = await db.query<Safeguard>(`SELECT ${COLUMNS} FROM ${FROM} ORDER BY s.created_at, s.id`);
  return rows;
}

export async function insertSafeguard(
  db: Queryable,
  s: Pick<
    Safeguard,
    'id' | 'configId' | 'releasePlanId' | 'featureName' | 'environment' | 'operator' | 'threshold'
  >,
): Promise<void> {
  await db.query(
    `INSERT INTO safeguards (id, config_id, release_plan_id, feature_name, environment, operator, threshold)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [s.id, s.configId, s.releasePlanId, s.featureName, s.environment, s.operator, s.threshold],
  );
}

/** A changed condition starts afresh: armed from now, not tripped. */
export async function updateCondition(
  db: Queryable,
  id: string,
  operator: string,
  threshold: number,
): Promise<void> {
  await db.query(
    'UPDATE safeguards SET operator = $2, threshold = $3, armed_at = now(), triggered_at = NULL WHERE id = $1',
    [id, operator, threshold],
  );
}

export async function deleteSafeguard(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM safeguards WHERE id = $1', [id]);
}

/** Records the trip, unless another check recorded one first; whether this one did. */
export async function markTriggered(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE safeguards SET triggered_at = now() WHERE id = $1 AND triggered_at IS NULL',
    [id],
  );
  return rowCount > 0;
}

/**
 * What it guards was resumed (or switched on again): it watches again from the next minute (the
 * metrics are kept per minute; the minute of the trip holds what tripped it).
 */
export async function rearm(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE safeguards SET triggered_at = NULL, armed_at = date_trunc('minute', now()) + interval '1 minute' WHERE id = $1`,
    [id],
  );
}
