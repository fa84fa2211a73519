import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { ContextField, LegalValue } from './types.js';

interface ContextFieldRecord {
  name: string;
  description: string | null;
  stickiness: boolean;
  sort_order: number;
  legal_values: LegalValue[];
  project: string | null;
  created_at: Date;
}

const COLUMNS = 'name, description, stickiness, sort_order, legal_values, project, created_at';

function toContextField(r: ContextFieldRecord): ContextField {
  return {
    name: r.name,
    description: r.description,
    stickiness: r.stickiness,
    sortOrder: r.sort_order,
    legalValues: r.legal_values,
    project: r.project,
    createdAt: r.created_at,
  };
}

/** Which fields a list holds: the instance's (`root`), every one, or one project's (with the instance's). */
export type ContextFieldScope = 'root' | 'all' | { project: string; withRoot: boolean };

export async function listContextFields(
  db: Queryable,
  scope: ContextFieldScope = 'root',
): Promise<ContextField[]> {
  const where =
    scope === 'all'
      ? 'true'
      : scope === 'root'
        ? 'project IS NULL'
        : scope.withRoot
          ? '(project = $1 OR project IS NULL)'
          : 'project = $1';
  const { rows } = await db.query<ContextFieldRecord>(
    `SELECT ${COLUMNS} FROM context_fields WHERE ${where} ORDER BY sort_order, name`,
    typeof scope === 'object' ? [scope.project] : [],
  );
  return rows.map(toContextField);
}

export async function findContextField(
  db: Queryable,
  name: string,
  { lock }: ReadOptions = {},
): Promise<ContextField | null> {
  const { rows } = await db.query<ContextFieldRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM context_fields WHERE name = $1`, lock),
    [name],
  );
  return rows[0] ? toContextField(rows[0]) : null;
}

export interface ContextFieldValues {
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValue[];
}

export interface NewContextFieldValues extends ContextFieldValues {
  project: string | null;
}

export async function insertContextField(
  db: Queryable,
  name: string,
  f: NewContextFieldValues,
): Promise<ContextField> {
  const { rows } = await db.query<ContextFieldRecord>(
    `INSERT INTO context_fields (name, description, stickiness, sort_order, legal_values, project)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING ${COLUMNS}`,
    [name, f.description, f.stickiness, f.sortOrder, JSON.stringify(f.legalValues), f.project],
  );
  return toContextField(rows[0]!);
}

export async function updateContextField(
  db: Queryable,
  name: string,
  f: ContextFieldValues,
): Promise<ContextField> {
  const { rows } = await db.query<ContextFieldRecord>(
    `UPDATE context_fields
        SET description = $2, stickiness = $3, sort_order = $4, legal_values = $5::jsonb, updated_at = now()
      WHERE name = $1 RETURNING ${COLUMNS}`,
    [name, f.description, f.stickiness, f.sortOrder, JSON.stringify(f.legalValues)],
  );
  return toContextField(rows[0]!);
}

export async function deleteContextField(db: Queryable, name: string): Promise<void> {
  await db.query('DELETE FROM context_fields WHERE name = $1', [name]);
}

/** Deletes the fields of a project (the project goes); answers them as they were. */
export async function deleteContextFieldsOfProject(db: Queryable, project: string): Promise<ContextField[]> {
  const { rows } = await db.query<ContextFieldRecord>(
    `DELETE FROM context_fields WHERE project = $1 RETURNING ${COLUMNS}`,
    [project],
  );
  return rows.map(toContextField).sort((a, b) => (a.name < b.name ? -1 : 1));
}
