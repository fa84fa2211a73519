import type { Queryable } from '../db/database.js';
import type { HourlyCount } from './batch.js';

/** Unknown flags kept at most: a misbehaving SDK cannot fill the table. */
export const MAX_UNKNOWN_FLAGS = 10_000;

/**
 * Remembers the flags SDKs reported counts for that no feature answers to, by application and
 * environment, with when they were last seen. Past MAX_UNKNOWN_FLAGS rows only those already
 * there are brought up to date.
 */
export async function recordUnknownFlags(db: Queryable, counts: HourlyCount[]): Promise<void> {
  const keys = new Map<string, HourlyCount>();
  for (const c of counts) {
    if (c.yes > 0 || c.no > 0) keys.set(`${c.featureName}\u0000${c.appName}\u0000${c.environment}`, c);
  }
  if (keys.size === 0) return;
  const rows = [...keys.values()];
  await db.query(
    `INSERT INTO unknown_flags (name, app_name, environment, seen_at)
     SELECT u.f, u.a, u.e, now()
       FROM unnest($1::text[], $2::text[], $3::text[]) AS u(f, a, e)
      WHERE NOT EXISTS (SELECT 1 FROM features WHERE name = u.f)
        AND ((SELECT count(*) FROM unknown_flags) < $4
             OR EXISTS (SELECT 1 FROM unknown_flags k WHERE k.name = u.f AND k.app_name = u.a AND k.environment = u.e))
      ORDER BY u.f, u.a, u.e
     ON CONFLICT (name, app_name, environment) DO UPDATE SET seen_at = EXCLUDED.seen_at`,
    [
      rows.map((r) => r.featureName),
      rows.map((r) => r.appName),
      rows.map((r) => r.environment),
      MAX_UNKNOWN_FLAGS,
    ],
  );
}

/** Retention: unknown flags not seen since `before`. */
export async function deleteUnknownFlagsSeenBefore(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM unknown_flags WHERE seen_at < $1', [before]);
  return rowCount;
}

export interface UnknownFlag {
  name: string;
  lastSeenAt: Date;
  lastEventAt: Date | null;
  reports: { appName: string; environment: string; seenAt: string }[];
}

/** The unknown flags seen since `since` that still name no feature, by name, at most 1,000. */
export async function listUnknownFlags(db: Queryable, since: Date, appName?: string): Promise<UnknownFlag[]> {
  const { rows } = await db.query<{
    name: string;
    last_seen_at: Date;
    last_event_at: Date | null;
    reports: UnknownFlag['reports'];
  }>(
    // The last event of a name is looked up for the names listed only, and by the feature's index
    // (events_feature): max(created_at) walked the events by date, every name past thousands of
    // others' (1,000 names took 1.4 s on the embedded database).
    `SELECT p.name, p.last_seen_at, p.reports,
            (SELECT e.created_at FROM events e WHERE e.feature_name = p.name ORDER BY e.id DESC LIMIT 1)
              AS last_event_at
       FROM (SELECT u.name, max(u.seen_at) AS last_seen_at,
                    json_agg(json_build_object('appName', u.app_name, 'environment', u.environment,
                                               'seenAt', u.seen_at)
                             ORDER BY u.app_name, u.environment) AS reports
               FROM unknown_flags u
              WHERE u.seen_at >= $1 AND ($2::text IS NULL OR u.app_name = $2)
                AND NOT EXISTS (SELECT 1 FROM features f WHERE f.name = u.name)
              GROUP BY u.name ORDER BY u.name LIMIT 1000) p
      ORDER BY p.name`,
    [since, appName ?? null],
  );
  return rows.map((r) => ({
    name: r.name,
    lastSeenAt: r.last_seen_at,
    lastEventAt: r.last_event_at,
    reports: r.reports,
  }));
}

export interface EnvironmentUsage {
  environment: string;
  hour: Date;
  yes: number;
  no: number;
}

/** A feature's counts of the last hour, per environment. */
export async function lastHourUsageOf(db: Queryable, featureName: string): Promise<EnvironmentUsage[]> {
  const { rows } = await db.query<{ environment: string; hour: Date; yes: string; no: string }>(
    `SELECT environment, min(hour) AS hour, sum(yes) AS yes, sum(no) AS no FROM client_metrics_hourly
      WHERE feature_name = $1 AND hour >= now() - interval '1 hour'
      GROUP BY environment ORDER BY environment`,
    [featureName],
  );
  const exact = (n: string) => Math.min(Number(n), Number.MAX_SAFE_INTEGER);
  return rows.map((r) => ({ environment: r.environment, hour: r.hour, yes: exact(r.yes), no: exact(r.no) }));
}

/** The applications that reported counts of a feature since `since`. */
export async function applicationsReporting(
  db: Queryable,
  featureName: string,
  since: Date,
): Promise<string[]> {
  const { rows } = await db.query<{ app_name: string }>(
    `SELECT DISTINCT app_name FROM client_metrics_hourly WHERE feature_name = $1 AND hour >= $2 ORDER BY app_name`,
    [featureName, since],
  );
  return rows.map((r) => r.app_name);
}

/** Which features each (application, environment) reported counts of, for these features or for one application. */
export async function usageByApplication(
  db: Queryable,
  filter: { features: string[] } | { appName: string },
): Promise<{ appName: string; environment: string; features: string[] }[]> {
  const byFeatures = 'features' in filter;
  const { rows } = await db.query<{ app_name: string; environment: string; features: string[] }>(
    `SELECT app_name, environment, array_agg(DISTINCT feature_name ORDER BY feature_name) AS features
       FROM client_metrics_hourly
      WHERE ${byFeatures ? 'feature_name = ANY($1::text[])' : 'app_name = $1'}
      GROUP BY app_name, environment ORDER BY app_name, environment`,
    [byFeatures ? filter.features : filter.appName],
  );
  return rows.map((r) => ({ appName: r.app_name, environment: r.environment, features: r.features }));
}
