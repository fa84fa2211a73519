import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { Variant } from './rules.js';

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
