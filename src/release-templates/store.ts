import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { StrategySettings } from '../features/strategies/settings.js';

export interface MilestoneStrategy extends StrategySettings {
  id: string;
  sortOrder: number;
}

export interface Milestone {
  id: string;
  name: string;
  sortOrder: number;
  strategies: MilestoneStrategy[];
}

export interface Template {
  id: string;
  name: string;
  description: string | null;
  /** The project it is offered in; null: every project. */
  project: string | null;
  milestones: Milestone[];
  createdByUserId: number | null;
  createdAt: Date;
  archivedAt: Date | null;
}

const COLUMNS = `id, name, description, project, milestones, created_by_user_id AS "createdByUserId",
  created_at AS "createdAt", archived_at AS "archivedAt"`;

/**
 * The templates in use (not archived), oldest first: those of no project, or those of `project`
 * and, with `withRoot`, those of no project too.
 */
export async function listLiveTemplates(
  db: Queryable,
  project: string | null,
  withRoot = false,
): Promise<Template[]> {
  const { rows } = await db.query<Template>(
    `SELECT ${COLUMNS} FROM release_plan_templates
      WHERE archived_at IS NULL AND (project IS NOT DISTINCT FROM $1 OR ($2 AND project IS NULL))
      ORDER BY created_at, id`,
    [project, withRoot],
  );
  return rows;
}

export async function findTemplate(
  db: Queryable,
  id: string,
  options: ReadOptions = {},
): Promise<Template | undefined> {
  const { rows } = await db.query<Template>(
    withRowLock(`SELECT ${COLUMNS} FROM release_plan_templates WHERE id = $1`, options.lock),
    [id],
  );
  return rows[0];
}

/** Whether a template in use of the same project (or of none), other than `except`, has the name. */
export async function liveNameTaken(
  db: Queryable,
  name: string,
  project: string | null,
  except = '',
): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM release_plan_templates
      WHERE name = $1 AND project IS NOT DISTINCT FROM $2 AND archived_at IS NULL AND id <> $3`,
    [name, project, except],
  );
  return rows.length > 0;
}

export async function insertTemplate(
  db: Queryable,
  t: Omit<Template, 'createdAt' | 'archivedAt'>,
): Promise<Template> {
  const { rows } = await db.query<Template>(
    `INSERT INTO release_plan_templates (id, name, description, project, milestones, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING ${COLUMNS}`,
    [t.id, t.name, t.description, t.project, JSON.stringify(t.milestones), t.createdByUserId],
  );
  return rows[0]!;
}

export async function updateTemplate(
  db: Queryable,
  id: string,
  t: Pick<Template, 'name' | 'description' | 'milestones'>,
): Promise<Template> {
  const { rows } = await db.query<Template>(
    `UPDATE release_plan_templates SET name = $2, description = $3, milestones = $4::jsonb
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, t.name, t.description, JSON.stringify(t.milestones)],
  );
  return rows[0]!;
}

export async function archiveTemplate(db: Queryable, id: string): Promise<void> {
  await db.query(
    'UPDATE release_plan_templates SET archived_at = now() WHERE id = $1 AND archived_at IS NULL',
    [id],
  );
}

export async function deleteTemplate(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM release_plan_templates WHERE id = $1', [id]);
}
