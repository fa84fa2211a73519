import type { Queryable } from '../../db/database.js';
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
  const strategies = `(SELECT count(*)::int AS n, count(*) FILTER (WHERE NOT s.disabled)::int AS active
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
