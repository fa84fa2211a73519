import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface Application {
  appName: string;
  description: string | null;
  url: string | null;
  color: string | null;
  icon: string | null;
  sdkVersion: string | null;
  strategies: string[];
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date | null;
  seenAt: Date | null;
}

interface ApplicationRecord {
  app_name: string;
  description: string | null;
  url: string | null;
  color: string | null;
  icon: string | null;
  sdk_version: string | null;
  strategies: string[];
  created_by: string | null;
  created_at: Date;
  updated_at: Date | null;
  seen_at: Date | null;
}

const COLUMNS =
  'app_name, description, url, color, icon, sdk_version, strategies, created_by, created_at, updated_at, seen_at';

function toApplication(r: ApplicationRecord): Application {
  return {
    appName: r.app_name,
    description: r.description,
    url: r.url,
    color: r.color,
    icon: r.icon,
    sdkVersion: r.sdk_version,
    strategies: r.strategies,
    createdBy: r.created_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    seenAt: r.seen_at,
  };
}

export interface ApplicationFields {
  description?: string;
  url?: string;
  color?: string;
  icon?: string;
  sdkVersion?: string;
  strategies?: string[];
}

const FIELD_COLUMNS: Record<keyof ApplicationFields, string> = {
  description: 'description',
  url: 'url',
  color: 'color',
  icon: 'icon',
  sdkVersion: 'sdk_version',
  strategies: 'strategies',
};

export async function findApplication(
  db: Queryable,
  appName: string,
  { lock }: ReadOptions = {},
): Promise<Application | null> {
  const { rows } = await db.query<ApplicationRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM client_applications WHERE app_name = $1`, lock),
    [appName],
  );
  return rows[0] ? toApplication(rows[0]) : null;
}

export async function listApplications(db: Queryable): Promise<Application[]> {
  const { rows } = await db.query<ApplicationRecord>(
    `SELECT ${COLUMNS} FROM client_applications ORDER BY app_name`,
  );
  return rows.map(toApplication);
}

/** Null when the application exists, also when another request has just created it. */
export async function insertApplication(
  db: Queryable,
  appName: string,
  fields: ApplicationFields,
  createdBy: string,
): Promise<Application | null> {
  const { rows } = await db.query<ApplicationRecord>(
    `INSERT INTO client_applications (app_name, description, url, color, icon, sdk_version, strategies, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    [
      appName,
      fields.description ?? null,
      fields.url ?? null,
      fields.color ?? null,
      fields.icon ?? null,
      fields.sdkVersion ?? null,
      JSON.stringify(fields.strategies ?? []),
      createdBy,
    ],
  );
  return rows[0] ? toApplication(rows[0]) : null;
}

/** Changes only the fields given; the others keep their values. */
export async function updateApplication(
  db: Queryable,
  appName: string,
  fields: ApplicationFields,
): Promise<Application> {
  const sets: string[] = ['updated_at = now()'];
  const params: unknown[] = [appName];
  for (const [key, column] of Object.entries(FIELD_COLUMNS) as [keyof ApplicationFields, string][]) {
    const value = fields[key];
    if (value === undefined) continue;
    params.push(key === 'strategies' ? JSON.stringify(value) : value);
    sets.push(`${column} = $${params.length}${key === 'strategies' ? '::jsonb' : ''}`);
  }
  const { rows } = await db.query<ApplicationRecord>(
    `UPDATE client_applications SET ${sets.join(', ')} WHERE app_name = $1 RETURNING ${COLUMNS}`,
    params,
  );
  return toApplication(rows[0]!);
}

export async function deleteApplication(db: Queryable, appName: string): Promise<void> {
  await db.query('DELETE FROM client_applications WHERE app_name = $1', [appName]);
}

export interface Instance {
  appName: string;
  instanceId: string;
  environment: string;
  sdkVersion: string | null;
  clientIp: string | null;
  startedAt: Date | null;
  intervalMs: number | null;
  createdAt: Date;
  lastSeen: Date;
}

export async function upsertInstance(
  db: Queryable,
  i: Omit<Instance, 'createdAt' | 'lastSeen'>,
): Promise<void> {
  await db.query(
    `INSERT INTO client_instances (app_name, instance_id, environment, sdk_version, client_ip, started_at, interval_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (app_name, environment, instance_id) DO UPDATE SET
       sdk_version = COALESCE(EXCLUDED.sdk_version, client_instances.sdk_version),
       client_ip = COALESCE(EXCLUDED.client_ip, client_instances.client_ip),
       started_at = COALESCE(EXCLUDED.started_at, client_instances.started_at),
       interval_ms = COALESCE(EXCLUDED.interval_ms, client_instances.interval_ms),
       last_seen = now()`,
    [i.appName, i.instanceId, i.environment, i.sdkVersion, i.clientIp, i.startedAt, i.intervalMs],
  );
  await db.query('UPDATE client_applications SET seen_at = now() WHERE app_name = $1', [i.appName]);
}

/** Retention: instances not seen since `before`. */
export async function deleteInstancesNotSeenSince(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM client_instances WHERE last_seen < $1', [before]);
  return rowCount;
}

export async function instancesOf(db: Queryable, appName: string): Promise<Instance[]> {
  const { rows } = await db.query<{
    app_name: string;
    instance_id: string;
    environment: string;
    sdk_version: string | null;
    client_ip: string | null;
    started_at: Date | null;
    interval_ms: number | null;
    created_at: Date;
    last_seen: Date;
  }>(
    `SELECT app_name, instance_id, environment, sdk_version, client_ip, started_at, interval_ms, created_at, last_seen
       FROM client_instances WHERE app_name = $1 ORDER BY last_seen DESC LIMIT 1000`,
    [appName],
  );
  return rows.map((r) => ({
    appName: r.app_name,
    instanceId: r.instance_id,
    environment: r.environment,
    sdkVersion: r.sdk_version,
    clientIp: r.client_ip,
    startedAt: r.started_at,
    intervalMs: r.interval_ms,
    createdAt: r.created_at,
    lastSeen: r.last_seen,
  }));
}
