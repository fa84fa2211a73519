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

export interface ApplicationPage {
  /** Part of the name, any case. */
  query?: string;
  offset: number;
  limit: number;
  sortBy: 'appName' | 'createdAt';
  sortOrder: 'asc' | 'desc';
}

const SORT_COLUMNS = { appName: 'app_name', createdAt: 'created_at' } as const;

/** A page of the applications whose name holds the query, and how many there are in all. */
export async function listApplications(
  db: Queryable,
  page: ApplicationPage,
): Promise<{ applications: Application[]; total: number }> {
  const order = page.sortOrder === 'desc' ? 'DESC' : 'ASC';
  // LIKE's own characters in the query are meant literally.
  const pattern = `%${(page.query ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await db.query<ApplicationRecord & { total: number }>(
    `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM client_applications
      WHERE app_name ILIKE $1
      ORDER BY ${SORT_COLUMNS[page.sortBy]} ${order}, app_name ${order} OFFSET $2 LIMIT $3`,
    [pattern, page.offset, page.limit],
  );
  if (rows.length === 0 && page.offset > 0) {
    const { rows: counted } = await db.query<{ total: number }>(
      'SELECT count(*)::int AS total FROM client_applications WHERE app_name ILIKE $1',
      [pattern],
    );
    return { applications: [], total: counted[0]!.total };
  }
  return { applications: rows.map(toApplication), total: rows[0]?.total ?? 0 };
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

/** An Admin saved it (E13): retention leaves it alone however long no SDK reports it. */
export async function markSavedByAdmin(db: Queryable, appName: string): Promise<void> {
  await db.query('UPDATE client_applications SET saved_by_admin = true WHERE app_name = $1', [appName]);
}

/** Rows deleted by one statement at most, so a large removal holds the database in short turns. */
const DELETE_BATCH = 500;

/**
 * Retention: applications no SDK has reported since `before` (nor made since then), that no Admin
 * saved; their instances go with them.
 */
export async function deleteApplicationsNotSeenSince(db: Queryable, before: Date): Promise<number> {
  let removed = 0;
  for (;;) {
    const { rowCount } = await db.query(
      `DELETE FROM client_applications WHERE app_name IN (
         SELECT app_name FROM client_applications
          WHERE NOT saved_by_admin AND COALESCE(seen_at, created_at) < $1 LIMIT $2)`,
      [before, DELETE_BATCH],
    );
    removed += rowCount;
    if (rowCount < DELETE_BATCH) return removed;
  }
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

/**
 * Applications SDKs reported from, seen now, made with only their names when new: one statement
 * however many. Each is locked until the transaction ends (so none is deleted before its instances
 * are written), in code-point order as the services sort (so two processes cannot deadlock).
 * Answers the names it made: a row it inserted has no deleting or locking transaction
 * (`xmax = 0`), while a row it found and updated has this one.
 */
export async function noteApplicationsSeen(
  db: Queryable,
  appNames: string[],
  createdBy: string,
): Promise<string[]> {
  if (appNames.length === 0) return [];
  const { rows } = await db.query<{ app_name: string }>(
    `WITH touched AS (
       INSERT INTO client_applications (app_name, created_by, seen_at)
       SELECT a, $2, now() FROM unnest($1::text[]) AS a ORDER BY a COLLATE "C"
       ON CONFLICT (app_name) DO UPDATE SET seen_at = now()
       RETURNING app_name, xmax = 0 AS created)
     SELECT app_name FROM touched WHERE created ORDER BY app_name`,
    [[...new Set(appNames)], createdBy],
  );
  return rows.map((r) => r.app_name);
}
