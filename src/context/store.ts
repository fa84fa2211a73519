import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface LegalValue {
  value: string;
  description?: string;
}

export interface ContextField {
  name: string;
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValue[];
  createdAt: Date;
}

interface ContextFieldRecord {
  name: string;
  description: string | null;
  stickiness: boolean;
  sort_order: number;
  legal_values: LegalValue[];
  created_at: Date;
}

const COLUMNS = 'name, description, stickiness, sort_order, legal_values, created_at';

function toContextField(r: ContextFieldRecord): ContextField {
  return {
    name: r.name,
    description: r.description,
    stickiness: r.stickiness,
    sortOrder: r.sort_order,
    legalValues: r.legal_values,
    createdAt: r.created_at,
  };
}

export async function listContextFields(db: Queryable): Promise<ContextField[]> {
  const { rows } = await db.query<ContextFieldRecord>(
    `SELECT ${COLUMNS} FROM context_fields ORDER BY sort_order, name`,
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

export async function insertContextField(
  db: Queryable,
  name: string,
  f: ContextFieldValues,
): Promise<ContextField> {
  const { rows } = await db.query<ContextFieldRecord>(
    `INSERT INTO context_fields (name, description, stickiness, sort_order, legal_values)
     VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING ${COLUMNS}`,
    [name, f.description, f.stickiness, f.sortOrder, JSON.stringify(f.legalValues)],
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
