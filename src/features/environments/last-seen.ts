import type { Queryable } from '../../db/database.js';
import { enterStagesSeen } from '../lifecycle/store.js';

/**
 * SDKs reported these features in these environments: their last-seen times become now, and they
 * enter the lifecycle stages that reaching SDKs means (pre-live; live from a production
 * environment where they are on). Nothing happens for names that are not there. Rows are locked
 * in key order (the subqueries), so two processes flushing metrics for the same features at once
 * wait for each other instead of deadlocking.
 */
export async function markFeaturesSeen(
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
  await db.query(
    `UPDATE features SET last_seen_at = now()
      WHERE name IN (SELECT name FROM features WHERE name = ANY($1::text[]) ORDER BY name FOR NO KEY UPDATE)`,
    [[...new Set(seen.map((s) => s.featureName))]],
  );
  await enterStagesSeen(db, seen);
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
