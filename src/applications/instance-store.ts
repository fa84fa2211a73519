import type { Queryable } from '../db/database.js';

/** SDK instances: one row per application, environment and instance id. */

export interface Instance {
  appName: string;
  instanceId: string;
  environment: string;
  sdkVersion: string | null;
  /** 'backend' (client API) or 'frontend' (frontend API); null when not known. */
  sdkType: string | null;
  clientIp: string | null;
  startedAt: Date | null;
  intervalMs: number | null;
  createdAt: Date;
  lastSeen: Date;
}

/**
 * Instances seen now: made when new; the fields reported replace the stored ones, the others stay.
 * One statement however many, written in key order (code-point order, as the services sort) so two
 * processes cannot deadlock.
 */
export async function upsertInstances(db: Queryable, instances: readonly InstanceRow[]): Promise<void> {
  if (instances.length === 0) return;
  const rows = [...oneRowPerInstance(instances)];
  await db.query(
    `INSERT INTO client_instances (app_name, instance_id, environment, sdk_version, client_ip, started_at, interval_ms, sdk_type)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::int[], $8::text[])
              AS u(a, i, e, v, ip, s, iv, t)
      ORDER BY u.a COLLATE "C", u.e COLLATE "C", u.i COLLATE "C"
     ON CONFLICT (app_name, environment, instance_id) DO UPDATE SET
       sdk_version = COALESCE(EXCLUDED.sdk_version, client_instances.sdk_version),
       sdk_type = COALESCE(EXCLUDED.sdk_type, client_instances.sdk_type),
       client_ip = COALESCE(EXCLUDED.client_ip, client_instances.client_ip),
       started_at = COALESCE(EXCLUDED.started_at, client_instances.started_at),
       interval_ms = COALESCE(EXCLUDED.interval_ms, client_instances.interval_ms),
       last_seen = now()`,
    [
      rows.map((i) => i.appName),
      rows.map((i) => i.instanceId),
      rows.map((i) => i.environment),
      rows.map((i) => i.sdkVersion),
      rows.map((i) => i.clientIp),
      rows.map((i) => i.startedAt?.toISOString() ?? null),
      rows.map((i) => i.intervalMs),
      rows.map((i) => i.sdkType),
    ],
  );
}

type InstanceRow = Omit<Instance, 'createdAt' | 'lastSeen'>;

/**
 * One statement cannot update a row twice: an instance reported twice is merged as the two upserts
 * would have left it, each field from the last report that had it.
 */
function oneRowPerInstance(instances: readonly InstanceRow[]): Iterable<InstanceRow> {
  const byKey = new Map<string, InstanceRow>();
  for (const i of instances) {
    const key = `${i.appName}\u0000${i.environment}\u0000${i.instanceId}`;
    const before = byKey.get(key);
    byKey.set(
      key,
      before
        ? {
            ...i,
            sdkVersion: i.sdkVersion ?? before.sdkVersion,
            clientIp: i.clientIp ?? before.clientIp,
            startedAt: i.startedAt ?? before.startedAt,
            intervalMs: i.intervalMs ?? before.intervalMs,
            sdkType: i.sdkType ?? before.sdkType,
          }
        : i,
    );
  }
  return byKey.values();
}

/** Retention: instances not seen since `before`. */
export async function deleteInstancesNotSeenSince(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM client_instances WHERE last_seen < $1', [before]);
  return rowCount;
}

/** The instances of these applications seen after `since`, newest first, at most `limit`. */
export async function instancesOf(
  db: Queryable,
  appNames: string[],
  since = new Date(0),
  limit = 1000,
): Promise<Instance[]> {
  const { rows } = await db.query<{
    app_name: string;
    instance_id: string;
    environment: string;
    sdk_version: string | null;
    sdk_type: string | null;
    client_ip: string | null;
    started_at: Date | null;
    interval_ms: number | null;
    created_at: Date;
    last_seen: Date;
  }>(
    `SELECT app_name, instance_id, environment, sdk_version, sdk_type, client_ip, started_at, interval_ms, created_at,
            last_seen
       FROM client_instances WHERE app_name = ANY($1::text[]) AND last_seen > $2
      ORDER BY last_seen DESC LIMIT $3`,
    [appNames, since, limit],
  );
  return rows.map((r) => ({
    appName: r.app_name,
    instanceId: r.instance_id,
    environment: r.environment,
    sdkVersion: r.sdk_version,
    sdkType: r.sdk_type,
    clientIp: r.client_ip,
    startedAt: r.started_at,
    intervalMs: r.interval_ms,
    createdAt: r.created_at,
    lastSeen: r.last_seen,
  }));
}

/** Every SDK version instances run, with the applications running it. */
export async function applicationsBySdkVersion(
  db: Queryable,
): Promise<{ sdkVersion: string; applications: string[] }[]> {
  const { rows } = await db.query<{ sdk_version: string; applications: string[] }>(
    `SELECT sdk_version, array_agg(DISTINCT app_name ORDER BY app_name) AS applications
       FROM client_instances WHERE sdk_version IS NOT NULL GROUP BY sdk_version ORDER BY sdk_version`,
  );
  return rows.map((r) => ({ sdkVersion: r.sdk_version, applications: r.applications }));
}
