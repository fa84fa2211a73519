import type { Queryable } from '../db/database.js';
import type { HourlyCount } from './batch.js';

const BIGINT_MAX = '9223372036854775807';

/**
 * Adds the counts to their hourly rows; counts for features that do not exist are dropped. Sums
 * stop at the largest bigint instead of failing. Rows are written in key order, so two processes
 * flushing overlapping rows at once wait for each other instead of deadlocking. Whether any count
 * was written (the caller then marks the features seen: features/last-seen.ts).
 */
export async function addHourlyCounts(db: Queryable, counts: HourlyCount[]): Promise<boolean> {
  if (counts.length === 0) return false;
  const { rowCount } = await db.query(
    `INSERT INTO client_metrics_hourly (feature_name, app_name, environment, hour, yes, no)
     SELECT u.f, u.a, u.e, u.h, u.y, u.n
       FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::bigint[], $6::bigint[]) AS u(f, a, e, h, y, n)
      WHERE EXISTS (SELECT 1 FROM features WHERE name = u.f)
      ORDER BY u.f, u.h, u.a, u.e
     ON CONFLICT (feature_name, hour, app_name, environment) DO UPDATE
       SET yes = client_metrics_hourly.yes + LEAST(EXCLUDED.yes, ${BIGINT_MAX} - client_metrics_hourly.yes),
           no = client_metrics_hourly.no + LEAST(EXCLUDED.no, ${BIGINT_MAX} - client_metrics_hourly.no)`,
    [
      counts.map((c) => c.featureName),
      counts.map((c) => c.appName),
      counts.map((c) => c.environment),
      counts.map((c) => c.hour.toISOString()),
      counts.map((c) => c.yes),
      counts.map((c) => c.no),
    ],
  );
  if (rowCount === 0) return false;
  const variants = counts.flatMap((c) =>
    [...c.variants].map(([variant, count]) => ({ ...c, variant, count })),
  );
  if (variants.length === 0) return true;
  // In key order as well; the row of each count is locked above.
  await db.query(
    `INSERT INTO client_metrics_variants_hourly (feature_name, app_name, environment, hour, variant, count)
     SELECT u.f, u.a, u.e, u.h, u.v, u.c
       FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::bigint[]) AS u(f, a, e, h, v, c)
      WHERE EXISTS (SELECT 1 FROM client_metrics_hourly m
                     WHERE m.feature_name = u.f AND m.hour = u.h AND m.app_name = u.a AND m.environment = u.e)
      ORDER BY u.f, u.h, u.a, u.e, u.v
     ON CONFLICT (feature_name, hour, app_name, environment, variant) DO UPDATE
       SET count = client_metrics_variants_hourly.count
                   + LEAST(EXCLUDED.count, ${BIGINT_MAX} - client_metrics_variants_hourly.count)`,
    [
      variants.map((v) => v.featureName),
      variants.map((v) => v.appName),
      variants.map((v) => v.environment),
      variants.map((v) => v.hour.toISOString()),
      variants.map((v) => v.variant),
      variants.map((v) => v.count),
    ],
  );
  return true;
}

/** Retention: hourly counts of hours before `before`; their variant counts go with them (cascade). */
export async function deleteHourlyCountsBefore(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM client_metrics_hourly WHERE hour < $1', [before]);
  return rowCount;
}

export interface HourlyRow {
  appName: string;
  environment: string;
  hour: Date;
  yes: number;
  no: number;
  variants: Record<string, number>;
}

export async function hourlyRowsOf(db: Queryable, featureName: string, since: Date): Promise<HourlyRow[]> {
  const { rows } = await db.query<{
    app_name: string;
    environment: string;
    hour: Date;
    yes: number;
    no: number;
    variants: Record<string, number> | null;
  }>(
    // Sums past 2^53 read as 2^53 - 1: a number every client (and the driver) holds exactly.
    `SELECT m.app_name, m.environment, m.hour,
            LEAST(m.yes, ${Number.MAX_SAFE_INTEGER}) AS yes, LEAST(m.no, ${Number.MAX_SAFE_INTEGER}) AS no,
            (SELECT jsonb_object_agg(v.variant, LEAST(v.count, ${Number.MAX_SAFE_INTEGER}))
               FROM client_metrics_variants_hourly v
              WHERE v.feature_name = m.feature_name AND v.hour = m.hour
                AND v.app_name = m.app_name AND v.environment = m.environment) AS variants
       FROM client_metrics_hourly m
      WHERE m.feature_name = $1 AND m.hour >= $2
      ORDER BY m.environment, m.app_name, m.hour
      LIMIT 100000`,
    [featureName, since.toISOString()],
  );
  return rows.map((r) => ({
    appName: r.app_name,
    environment: r.environment,
    hour: r.hour,
    yes: Number(r.yes),
    no: Number(r.no),
    variants: Object.fromEntries(Object.entries(r.variants ?? {}).map(([k, v]) => [k, Number(v)])),
  }));
}

/** The features this application has reported usage of. */
export async function featuresReportedBy(db: Queryable, appName: string): Promise<string[]> {
  const { rows } = await db.query<{ feature_name: string }>(
    'SELECT DISTINCT feature_name FROM client_metrics_hourly WHERE app_name = $1 ORDER BY feature_name',
    [appName],
  );
  return rows.map((r) => r.feature_name);
}
