import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { StrategySettings } from '../features/strategies/settings.js';
import type { Project } from './types.js';

/**
 * The strategy a project gives a feature switched on in one of its environments without any, as
 * stored: the body of POST .../default-strategy after its checks.
 */
export type DefaultStrategy = StrategySettings;

interface ProjectRecord {
  id: string;
  name: string;
  description: string | null;
  mode: string;
  default_stickiness: string;
  created_at: Date;
  updated_at: Date | null;
}

const COLUMNS = 'id, name, description, mode, default_stickiness, created_at, updated_at';

function toProject(r: ProjectRecord): Project {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    mode: r.mode,
    defaultStickiness: r.default_stickiness,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function findProject(
  db: Queryable,
  id: string,
  { lock }: ReadOptions = {},
): Promise<Project | null> {
  const { rows } = await db.query<ProjectRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM projects WHERE id = $1`, lock),
    [id],
  );
  return rows[0] ? toProject(rows[0]) : null;
}

/** Every project, in no particular order. */
export async function listProjectRows(db: Queryable): Promise<Project[]> {
  const { rows } = await db.query<ProjectRecord>(`SELECT ${COLUMNS} FROM projects`);
  return rows.map(toProject);
}

export interface EnvironmentLink {
  project: string;
  environment: string;
  defaultStrategy: DefaultStrategy | null;
  /** Approvals a change request needs here; null where flags are changed directly. */
  changeRequestApprovals: number | null;
}

const LINK_COLUMNS = `project_id AS project, environment_name AS environment, default_strategy AS "defaultStrategy",
       change_request_approvals AS "changeRequestApprovals"`;

/** Every link between a project and an environment, with the default strategy it sets. */
export async function listEnvironmentLinks(db: Queryable): Promise<EnvironmentLink[]> {
  const { rows } = await db.query<EnvironmentLink>(`SELECT ${LINK_COLUMNS} FROM project_environments`);
  return rows;
}

/** The project's links to environments, with their default strategies. */
export async function environmentLinksOf(db: Queryable, projectId: string): Promise<EnvironmentLink[]> {
  const { rows } = await db.query<EnvironmentLink>(
    `SELECT ${LINK_COLUMNS} FROM project_environments WHERE project_id = $1`,
    [projectId],
  );
  return rows;
}

/**
 * Sets the default strategy of the project in the environment; false when the environment is not
 * linked to the project. The link's row is locked until the transaction ends.
 */
export async function setDefaultStrategy(
  db: Queryable,
  projectId: string,
  environment: string,
  strategy: DefaultStrategy,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE project_environments SET default_strategy = $3::jsonb WHERE project_id = $1 AND environment_name = $2`,
    [projectId, environment, JSON.stringify(strategy)],
  );
  return rowCount > 0;
}

export interface ProjectSummary extends Project {
  featureCount: number;
  /** Live features marked stale. */
  staleCount: number;
  /** Live features past their type's expected lifetime, not marked stale. */
  potentiallyStaleCount: number;
}

/** Every project, by name, with how many live features it holds, stale or potentially stale. */
export async function listProjects(db: Queryable): Promise<ProjectSummary[]> {
  const { rows } = await db.query<
    ProjectRecord & { feature_count: number; stale_count: number; potentially_stale_count: number }
  >(
    `SELECT ${COLUMNS},
       coalesce(h.feature_count, 0) AS feature_count, coalesce(h.stale_count, 0) AS stale_count,
       coalesce(h.potentially_stale_count, 0) AS potentially_stale_count
     FROM projects p
     LEFT JOIN (
       SELECT f.project, count(*)::int AS feature_count, count(*) FILTER (WHERE f.stale)::int AS stale_count,
              count(*) FILTER (WHERE NOT f.stale AND ft.lifetime_days IS NOT NULL
                                 AND extract(epoch FROM now() - f.created_at) >= ft.lifetime_days * 86400.0)::int
                AS potentially_stale_count
         FROM features f LEFT JOIN feature_types ft ON ft.id = f.type
        WHERE f.archived_at IS NULL
        GROUP BY f.project) h ON h.project = p.id
     ORDER BY p.name, p.id`,
  );
  return rows.map((r) => ({
    ...toProject(r),
    featureCount: r.feature_count,
    staleCount: r.stale_count,
    potentiallyStaleCount: r.potentially_stale_count,
  }));
}

export async function insertProject(
  db: Queryable,
  p: { id: string; name: string; description: string | null; mode: string; defaultStickiness: string },
): Promise<Project> {
  const { rows } = await db.query<ProjectRecord>(
    `INSERT INTO projects (id, name, description, mode, default_stickiness) VALUES ($1, $2, $3, $4, $5)
     RETURNING ${COLUMNS}`,
    [p.id, p.name, p.description, p.mode, p.defaultStickiness],
  );
  return toProject(rows[0]!);
}

/** Links a new project to those environments. */
export async function linkEnvironments(
  db: Queryable,
  projectId: string,
  environments: string[],
): Promise<void> {
  await db.query(
    `INSERT INTO project_environments (project_id, environment_name)
     SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
    [projectId, environments],
  );
}

/** The names of the environments linked to the project, in no particular order. */
export async function linkedEnvironments(db: Queryable, projectId: string): Promise<string[]> {
  const { rows } = await db.query<{ environment_name: string }>(
    'SELECT environment_name FROM project_environments WHERE project_id = $1',
    [projectId],
  );
  return rows.map((r) => r.environment_name);
}

export async function updateProject(
  db: Queryable,
  p: { id: string; name: string; description: string | null; mode: string; defaultStickiness: string },
): Promise<Project> {
  const { rows } = await db.query<ProjectRecord>(
    `UPDATE projects SET name = $2, description = $3, mode = $4, default_stickiness = $5, updated_at = now()
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [p.id, p.name, p.description, p.mode, p.defaultStickiness],
  );
  return toProject(rows[0]!);
}

/** Deletes the project with everything that hangs off it (grants, links, archived features). */
export async function deleteProject(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM projects WHERE id = $1', [id]);
}

/** Links the environment to the project; false when it already was. */
export async function linkEnvironment(
  db: Queryable,
  projectId: string,
  environment: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO project_environments (project_id, environment_name) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    [projectId, environment],
  );
  return rowCount > 0;
}

/** Unlinks the environment from the project; false when it was not linked. */
export async function unlinkEnvironment(
  db: Queryable,
  projectId: string,
  environment: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM project_environments WHERE project_id = $1 AND environment_name = $2',
    [projectId, environment],
  );
  return rowCount > 0;
}

/** The ids among `ids` that are projects. */
export async function existingProjectIds(
  db: Queryable,
  ids: string[],
  { lock }: ReadOptions = {},
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>(
    withRowLock('SELECT id FROM projects WHERE id = ANY($1::text[])', lock),
    [ids],
  );
  return new Set(rows.map((r) => r.id));
}

export interface ProjectRow {
  id: string;
  name: string;
  description: string | null;
  mode: string;
  defaultStickiness: string;
}

/**
 * Creates the projects, or overwrites the settings of those that exist; answers the ids it created
 * (a row this statement inserted has no `xmax`; one it updated has this transaction's).
 */
export async function upsertProjects(db: Queryable, rows: ProjectRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const { rows: written } = await db.query<{ id: string; created: boolean }>(
    `INSERT INTO projects (id, name, description, mode, default_stickiness)
     SELECT r.id, r.name, r.description, r.mode, r.default_stickiness
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text, description text, mode text, default_stickiness text)
     ON CONFLICT (id) DO UPDATE
       SET name = EXCLUDED.name, description = EXCLUDED.description, mode = EXCLUDED.mode,
           default_stickiness = EXCLUDED.default_stickiness, updated_at = now()
     RETURNING id, xmax = 0 AS created`,
    [
      JSON.stringify(
        rows.map((r) => ({
          id: r.id,
          name: r.name,
          description: r.description,
          mode: r.mode,
          default_stickiness: r.defaultStickiness,
        })),
      ),
    ],
  );
  return written.filter((r) => r.created).map((r) => r.id);
}

/** Deletes every project but those listed, with everything hanging off them; answers their ids. */
export async function deleteProjectsExcept(db: Queryable, keep: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'DELETE FROM projects WHERE NOT (id = ANY($1::text[])) RETURNING id',
    [keep],
  );
  return rows.map((r) => r.id).sort();
}

/** Whether changes in the environment of the project need a change request, and how many approvals; false if not linked. */
export async function setChangeRequestApprovals(
  db: Queryable,
  projectId: string,
  environment: string,
  approvals: number | null,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE project_environments SET change_request_approvals = $3 WHERE project_id = $1 AND environment_name = $2`,
    [projectId, environment, approvals],
  );
  return rowCount > 0;
}
