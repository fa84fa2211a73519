import type { Queryable } from '../db/database.js';

export interface Counts {
  users: number;
  readOnlyUsers: number;
  activeUsers: { last7: number; last30: number; last60: number; last90: number };
  featureToggles: number;
  projects: number;
  contextFields: number;
  roles: number;
  groups: number;
  environments: number;
  segments: number;
  strategies: number;
  clientApps: { '7d': number; '30d': number; allTime: number };
  featureExports: number;
  featureImports: number;
  apiTokens: { admin: number; client: number; frontend: number };
  productionChanges: { last30: number; last60: number; last90: number };
  previousDayMetricsBucketsCount: { enabledCount: number; variantCount: number };
  maxEnvironmentStrategies: number;
  maxConstraints: number;
  maxConstraintValues: number;
}

/**
 * Every count of the instance statistics in one statement, so they describe one moment. It only
 * reads, across the tables of many areas; what it counts is listed in the README.
 */
export async function readCounts(db: Queryable): Promise<Counts> {
  const { rows } = await db.query<{ counts: Counts }>(
    `WITH seen AS (
       SELECT id AS user_id, seen_at FROM users
       UNION ALL SELECT user_id, seen_at FROM personal_access_tokens),
     strategy_constraints AS (
       SELECT fs.id, c.value AS constraint_
         FROM feature_strategies fs, jsonb_array_elements(fs.constraints) c)
     SELECT json_build_object(
       'users', (SELECT count(*) FROM users),
       'readOnlyUsers', (SELECT count(*) FROM users WHERE root_role_id = 3),
       'activeUsers', (SELECT json_build_object(
          'last7', count(DISTINCT user_id) FILTER (WHERE seen_at > now() - interval '7 days'),
          'last30', count(DISTINCT user_id) FILTER (WHERE seen_at > now() - interval '30 days'),
          'last60', count(DISTINCT user_id) FILTER (WHERE seen_at > now() - interval '60 days'),
          'last90', count(DISTINCT user_id) FILTER (WHERE seen_at > now() - interval '90 days')) FROM seen),
       'featureToggles', (SELECT count(*) FROM features WHERE archived_at IS NULL),
       'projects', (SELECT count(*) FROM projects),
       'contextFields', (SELECT count(*) FROM context_fields),
       'roles', (SELECT count(*) FROM roles),
       'groups', (SELECT count(*) FROM groups),
       'environments', (SELECT count(*) FROM environments),
       'segments', (SELECT count(*) FROM segments),
       'strategies', (SELECT count(*) FROM strategies WHERE NOT deprecated),
       'clientApps', (SELECT json_build_object(
          '7d', count(*) FILTER (WHERE seen_at > now() - interval '7 days'),
          '30d', count(*) FILTER (WHERE seen_at > now() - interval '30 days'),
          'allTime', count(*)) FROM client_applications),
       'featureExports', (SELECT count(*) FROM events WHERE type = 'features-exported'),
       'featureImports', (SELECT count(*) FROM events WHERE type = 'features-imported'),
       'apiTokens', (SELECT json_build_object(
          'admin', count(*) FILTER (WHERE type = 'admin'),
          'client', count(*) FILTER (WHERE type = 'client'),
          'frontend', count(*) FILTER (WHERE type = 'frontend')) FROM api_tokens),
       'productionChanges', (SELECT json_build_object(
          'last30', count(*) FILTER (WHERE e.created_at > now() - interval '30 days'),
          'last60', count(*) FILTER (WHERE e.created_at > now() - interval '60 days'),
          'last90', count(*) FILTER (WHERE e.created_at > now() - interval '90 days'))
          FROM events e JOIN environments env ON env.name = e.environment
         WHERE env.type = 'production' AND e.created_at > now() - interval '90 days'),
       'previousDayMetricsBucketsCount', json_build_object(
          'enabledCount', (SELECT count(*) FROM client_metrics_hourly
                            WHERE hour >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 day'
                              AND hour < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
          'variantCount', (SELECT count(*) FROM client_metrics_variants_hourly
                            WHERE hour >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 day'
                              AND hour < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')),
       'maxEnvironmentStrategies', (SELECT coalesce(max(n), 0) FROM (
          SELECT count(*) AS n FROM feature_strategies GROUP BY feature_name, environment) s),
       'maxConstraints', (SELECT coalesce(max(jsonb_array_length(constraints)), 0) FROM feature_strategies),
       'maxConstraintValues', (SELECT coalesce(max(jsonb_array_length(constraint_->'values')), 0)
                                 FROM strategy_constraints
                                WHERE jsonb_typeof(constraint_->'values') = 'array')
     ) AS counts`,
  );
  return rows[0]!.counts;
}
