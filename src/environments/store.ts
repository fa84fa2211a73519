import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { Environment } from './types.js';

export interface EnvironmentWithCounts extends Environment {
  projectCount: number;
  apiTokenCount: number;
  enabledToggleCount: number;
}

const COUNTED = `
  SELECT e.name, e.type, e.enabled, e.protected, e.sort_order AS "sortOrder",
         (SELECT count(*)::int FROM project_environments pe WHERE pe.environment_name = e.name) AS "projectCount",
         (SELECT count(*)::int FROM api_tokens t WHERE t.environment = e.name) AS "apiTokenCount",
         (SELECT count(*)::int FROM feature_environments fe JOIN features f ON f.name = fe.feature_name
           WHERE fe.environment = e.name AND fe.enabled AND f.archived_at IS NULL) AS "enabledToggleCount"
    FROM environments e`;

/** Every environment without counts, in their order. */
export async function listEnvironmentRows(db: Queryable): Promise<Environment[]> {
  const { rows } = await db.query<Environment>(
    `SELECT name, type, enabled, protected, sort_order AS "sortOrder" FROM environments ORDER BY sort_order, name`,
  );
  return rows;
}

export async function listEnvironments(db: Queryable): Promise<EnvironmentWithCounts[]> {
  const { rows } = await db.query<EnvironmentWithCounts>(`${COUNTED} ORDER BY e.sort_order, e.name`);
  return rows;
}

export async function findEnvironment(
  db: Queryable,
  name: string,
  { lock }: ReadOptions = {},
): Promise<EnvironmentWithCounts | null> {
  const { rows } = await db.query<EnvironmentWithCounts>(
    withRowLock(`${COUNTED} WHERE e.name = $1`, lock, 'e'),
    [name],
  );
  return rows[0] ?? null;
}

/** Every environment, in their order, with the API tokens and enabled live features it has in one project. */
/** Every environment with the project's API tokens in it (its flags switched on there are counted from the read model). */
export async function listEnvironmentsOfProject(db: Queryable, project: string) {
  const { rows } = await db.query<Environment & { projectApiTokenCount: number }>(
    `SELECT e.name, e.type, e.enabled, e.protected, e.sort_order AS "sortOrder",
            (SELECT count(*)::int FROM api_tokens t
              WHERE t.environment = e.name AND ($1 = ANY(t.projects) OR '*' = ANY(t.projects))) AS "projectApiTokenCount"
       FROM environments e ORDER BY e.sort_order, e.name`,
    [project],
  );
  return rows;
}

export async function lastSortOrder(db: Queryable): Promise<number | null> {
  const { rows } = await db.query<{ max: number | null }>('SELECT max(sort_order) AS max FROM environments');
  return rows[0]?.max ?? null;
}

export async function insertEnvironment(db: Queryable, e: Omit<Environment, 'protected'>): Promise<void> {
  await db.query('INSERT INTO environments (name, type, enabled, sort_order) VALUES ($1, $2, $3, $4)', [
    e.name,
    e.type,
    e.enabled,
    e.sortOrder,
  ]);
}

export async function updateEnvironment(
  db: Queryable,
  e: { name: string; type: string; sortOrder: number; enabled: boolean },
): Promise<void> {
  await db.query('UPDATE environments SET type = $2, sort_order = $3, enabled = $4 WHERE name = $1', [
    e.name,
    e.type,
    e.sortOrder,
    e.enabled,
  ]);
}

/** Deletes the environment, unlinking it from every project and feature (with their strategies there). */
export async function deleteEnvironment(db: Queryable, name: string): Promise<void> {
  await db.query('DELETE FROM environments WHERE name = $1', [name]);
}

/** The environments that exist among `names`. */
export async function existingEnvironments(db: Queryable, names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const { rows } = await db.query<{ name: string }>(
    'SELECT name FROM environments WHERE name = ANY($1::text[])',
    [names],
  );
  return new Set(rows.map((r) => r.name));
}

/** The names of the enabled environments, in their order. */
export async function enabledEnvironments(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    'SELECT name FROM environments WHERE enabled ORDER BY sort_order, name',
  );
  return rows.map((r) => r.name);
}

/** Creates the environments, or overwrites the type, state and position of those that exist. */
export async function upsertEnvironments(
  db: Queryable,
  rows: Omit<Environment, 'protected'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO environments (name, type, enabled, sort_order)
     SELECT r.name, r.type, r.enabled, r.sort_order
       FROM jsonb_to_recordset($1::jsonb) AS r(name text, type text, enabled boolean, sort_order integer)
     ON CONFLICT (name) DO UPDATE SET type = EXCLUDED.type, enabled = EXCLUDED.enabled, sort_order = EXCLUDED.sort_order`,
    [
      JSON.stringify(
        rows.map((r) => ({ name: r.name, type: r.type, enabled: r.enabled, sort_order: r.sortOrder })),
      ),
    ],
  );
}
