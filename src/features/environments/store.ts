import type { Queryable } from '../../db/database.js';
import { jsonChunks } from '../../db/json-chunks.js';
import { type ReadOptions, withRowLock } from '../../db/lock.js';
import type { Variant } from '../variants/rules.js';

/**
 * Whether the feature is on in the environment; null when the feature has no such environment.
 * `lock` holds the row until the transaction ends, so concurrent changes to the environment's
 * strategies and state (e.g. two `on` requests adding a default strategy) happen one after the other.
 */
export async function findEnvironmentState(
  db: Queryable,
  featureName: string,
  environment: string,
  { lock }: ReadOptions = {},
): Promise<{ enabled: boolean } | null> {
  const { rows } = await db.query<{ enabled: boolean }>(
    withRowLock(
      'SELECT enabled FROM feature_environments WHERE feature_name = $1 AND environment = $2',
      lock,
    ),
    [featureName, environment],
  );
  return rows[0] ?? null;
}

export async function setEnvironmentEnabled(
  db: Queryable,
  featureName: string,
  environment: string,
  enabled: boolean,
): Promise<void> {
  await db.query(
    'UPDATE feature_environments SET enabled = $3 WHERE feature_name = $1 AND environment = $2',
    [featureName, environment, enabled],
  );
}

/** A feature's state in one environment: on or off, and what its strategies there are. */
export interface EnvironmentStrategies {
  enabled: boolean;
  hasStrategies: boolean;
  /** Some strategy is not disabled. */
  hasActiveStrategies: boolean;
  /** Some strategy is disabled. */
  hasDisabledStrategies: boolean;
}

/**
 * The feature with its state in the environment, in one statement: whether it is on there and
 * what strategies it has. `environment` is null when the feature has no such environment; null
 * altogether when there is no feature of that name. `lock` holds the environment's row as in
 * findEnvironmentState.
 */
export async function findFeatureEnvironment(
  db: Queryable,
  featureName: string,
  environment: string,
  { lock }: ReadOptions = {},
): Promise<{ project: string; archived: boolean; environment: EnvironmentStrategies | null } | null> {
  // A release plan with a started milestone counts as a strategy that is on: switching the
  // environment on adds no default strategy beside it.
  const plans = `(SELECT count(*)::int FROM release_plans p
                   WHERE p.feature_name = fe.feature_name AND p.environment = fe.environment
                     AND p.active_milestone_id IS NOT NULL)`;
  const strategies = `(SELECT count(*)::int + ${plans} AS n, count(*) FILTER (WHERE NOT s.disabled)::int + ${plans} AS active
                         FROM feature_strategies s
                        WHERE s.feature_name = fe.feature_name AND s.environment = fe.environment) AS st`;
  const { rows } = await db.query<{
    project: string;
    archived: boolean;
    enabled: boolean | null;
    n: number | null;
    active: number | null;
  }>(
    // A locked read cannot take the outer join: without the environment it finds nothing.
    lock
      ? withRowLock(
          `SELECT f.project, f.archived_at IS NOT NULL AS archived, fe.enabled, st.n, st.active
             FROM feature_environments fe JOIN features f ON f.name = fe.feature_name,
                  LATERAL ${strategies}
            WHERE fe.feature_name = $1 AND fe.environment = $2`,
          lock,
          'fe',
        )
      : `SELECT f.project, f.archived_at IS NOT NULL AS archived, fe.enabled, st.n, st.active
           FROM features f LEFT JOIN feature_environments fe ON fe.feature_name = f.name AND fe.environment = $2
                LEFT JOIN LATERAL ${strategies} ON true
          WHERE f.name = $1`,
    [featureName, environment],
  );
  const row = rows[0];
  if (!row) return null;
  const n = row.n ?? 0;
  const active = row.active ?? 0;
  return {
    project: row.project,
    archived: row.archived,
    environment:
      row.enabled === null
        ? null
        : {
            enabled: row.enabled,
            hasStrategies: n > 0,
            hasActiveStrategies: active > 0,
            hasDisabledStrategies: active < n,
          },
  };
}

/** The feature's variant list in the environment; null when the feature has no such environment. */
export async function findEnvironmentVariants(
  db: Queryable,
  featureName: string,
  environment: string,
  { lock }: ReadOptions = {},
): Promise<Variant[] | null> {
  const { rows } = await db.query<{ variants: Variant[] }>(
    withRowLock(
      'SELECT variants FROM feature_environments WHERE feature_name = $1 AND environment = $2',
      lock,
    ),
    [featureName, environment],
  );
  return rows[0]?.variants ?? null;
}

export async function setEnvironmentVariants(
  db: Queryable,
  featureName: string,
  environment: string,
  variants: readonly Variant[],
): Promise<void> {
  await db.query(
    'UPDATE feature_environments SET variants = $3::jsonb WHERE feature_name = $1 AND environment = $2',
    [featureName, environment, JSON.stringify(variants)],
  );
}

/** Attaches a new feature to those environments, disabled. */
export async function attachFeatureEnvironments(
  db: Queryable,
  name: string,
  environments: string[],
): Promise<void> {
  await db.query(
    `INSERT INTO feature_environments (feature_name, environment) SELECT $1, unnest($2::text[])`,
    [name, environments],
  );
}

/** Switches those features off in every environment. */
export async function disableFeaturesEverywhere(db: Queryable, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await db.query(
    'UPDATE feature_environments SET enabled = false WHERE feature_name = ANY($1::text[]) AND enabled',
    [names],
  );
}

/**
 * Attaches every feature of the project (archived ones too) to the environment, disabled; answers
 * the names of those it attached.
 */
export async function attachProjectFeatures(
  db: Queryable,
  project: string,
  environment: string,
): Promise<string[]> {
  const { rows } = await db.query<{ feature_name: string }>(
    `INSERT INTO feature_environments (feature_name, environment)
     SELECT name, $2 FROM features WHERE project = $1 ON CONFLICT DO NOTHING
     RETURNING feature_name`,
    [project, environment],
  );
  return rows.map((r) => r.feature_name);
}

/** Detaches every feature of the project from the environment (their strategies there must be gone). */
export async function detachProjectFeatures(
  db: Queryable,
  project: string,
  environment: string,
): Promise<void> {
  await db.query(
    `DELETE FROM feature_environments
      WHERE environment = $2 AND feature_name IN (SELECT name FROM features WHERE project = $1)`,
    [project, environment],
  );
}

/**
 * SDKs reported these features in these environments: their last-seen times become now. Rows are
 * locked in key order (the subquery), so two processes flushing metrics for the same features at
 * once wait for each other instead of deadlocking.
 */
export async function setEnvironmentsSeenNow(
  db: Queryable,
  seen: readonly { featureName: string; environment: string }[],
): Promise<void> {
  await db.query(
    `UPDATE feature_environments SET last_seen_at = now()
      WHERE (feature_name, environment) IN (
        SELECT feature_name, environment FROM feature_environments
         WHERE (feature_name, environment) IN (SELECT * FROM unnest($1::text[], $2::text[]))
         ORDER BY feature_name, environment FOR NO KEY UPDATE)`,
    [seen.map((s) => s.featureName), seen.map((s) => s.environment)],
  );
}

export interface SeenRow {
  featureName: string;
  /** null: the feature itself. */
  environment: string | null;
  lastSeenAt: Date;
}

/** When SDKs last reported each feature (and its environments), for the ones seen since `since`. */
export async function loadLastSeen(db: Queryable, since: Date): Promise<SeenRow[]> {
  const { rows } = await db.query<{ feature_name: string; environment: string | null; last_seen_at: Date }>(
    `SELECT name AS feature_name, NULL AS environment, last_seen_at FROM features WHERE last_seen_at >= $1
     UNION ALL
     SELECT feature_name, environment, last_seen_at FROM feature_environments WHERE last_seen_at >= $1`,
    [since],
  );
  return rows.map((r) => ({
    featureName: r.feature_name,
    environment: r.environment,
    lastSeenAt: r.last_seen_at,
  }));
}

// Writes of many features at once (imports): one statement per chunk of rows, each chunk one JSON
// document of a bounded size (db/json-chunks.ts).

export interface FeatureEnvironmentRow {
  featureName: string;
  environment: string;
  enabled: boolean;
  variants: Variant[];
}

/** Attaches features to environments with the state given, or sets it where they are attached. */
export async function upsertFeatureEnvironmentRows(db: Queryable, rows: FeatureEnvironmentRow[]) {
  if (rows.length === 0) return;
  for (const chunk of jsonChunks(
    rows.map((r) => ({
      feature_name: r.featureName,
      environment: r.environment,
      enabled: r.enabled,
      variants: r.variants,
    })),
  )) {
    await db.query(
      `INSERT INTO feature_environments (feature_name, environment, enabled, variants)
     SELECT r.feature_name, r.environment, r.enabled, r.variants
       FROM jsonb_to_recordset($1::jsonb) AS r(feature_name text, environment text, enabled boolean, variants jsonb)
     ON CONFLICT (feature_name, environment) DO UPDATE SET enabled = EXCLUDED.enabled, variants = EXCLUDED.variants`,
      [chunk],
    );
  }
}
