import type { Queryable } from '../db/database.js';
import { withRowLock } from '../db/lock.js';

/**
 * Whether the feature is on in the environment; null when the feature has no such environment.
 * `lock` holds the row until the transaction ends, so concurrent changes to the environment's
 * strategies and state (e.g. two `on` requests adding a default strategy) happen one after the other.
 */
export async function findEnvironmentState(
  db: Queryable,
  featureName: string,
  environment: string,
  lock = false,
): Promise<{ enabled: boolean } | null> {
  const { rows } = await db.query<{ enabled: boolean }>(
    withRowLock(
      'SELECT enabled FROM feature_environments WHERE feature_name = $1 AND environment = $2',
      lock ? 'update' : undefined,
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
