import type { Constraint } from '../constraints/rules.js';
import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface Segment {
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: Constraint[];
  createdBy: string | null;
  createdAt: Date;
}

interface SegmentRecord {
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: Constraint[];
  created_by: string | null;
  created_at: Date;
}

const COLUMNS = 'id, name, description, project, constraints, created_by, created_at';

function toSegment(r: SegmentRecord): Segment {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    project: r.project,
    constraints: r.constraints,
    createdBy: r.created_by,
    createdAt: r.created_at,
  };
}

export async function listSegments(db: Queryable): Promise<Segment[]> {
  const { rows } = await db.query<SegmentRecord>(`SELECT ${COLUMNS} FROM segments ORDER BY id`);
  return rows.map(toSegment);
}

export async function findSegment(
  db: Queryable,
  id: number,
  { lock }: ReadOptions = {},
): Promise<Segment | null> {
  const { rows } = await db.query<SegmentRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM segments WHERE id = $1`, lock),
    [id],
  );
  return rows[0] ? toSegment(rows[0]) : null;
}

/** Ordered by id, so that transactions locking several take them in one order. */
export async function findSegments(
  db: Queryable,
  ids: readonly number[],
  { lock }: ReadOptions = {},
): Promise<Segment[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<SegmentRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM segments WHERE id = ANY($1::int[]) ORDER BY id`, lock),
    [ids],
  );
  return rows.map(toSegment);
}

export async function findSegmentByName(db: Queryable, name: string): Promise<Segment | null> {
  const { rows } = await db.query<SegmentRecord>(`SELECT ${COLUMNS} FROM segments WHERE name = $1`, [name]);
  return rows[0] ? toSegment(rows[0]) : null;
}

export interface SegmentValues {
  name: string;
  description: string | null;
  project: string | null;
  constraints: Constraint[];
}

export async function insertSegment(db: Queryable, s: SegmentValues, createdBy: string): Promise<Segment> {
  const { rows } = await db.query<SegmentRecord>(
    `INSERT INTO segments (name, description, project, constraints, created_by)
     VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING ${COLUMNS}`,
    [s.name, s.description, s.project, JSON.stringify(s.constraints), createdBy],
  );
  return toSegment(rows[0]!);
}

export async function updateSegment(db: Queryable, id: number, s: SegmentValues): Promise<Segment> {
  const { rows } = await db.query<SegmentRecord>(
    `UPDATE segments SET name = $2, description = $3, project = $4, constraints = $5::jsonb
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, s.name, s.description, s.project, JSON.stringify(s.constraints)],
  );
  return toSegment(rows[0]!);
}

export async function deleteSegment(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM segments WHERE id = $1', [id]);
}

export async function segmentsUsingContextField(db: Queryable, contextName: string): Promise<Segment[]> {
  const { rows } = await db.query<SegmentRecord>(
    `SELECT ${COLUMNS} FROM segments WHERE constraints @> $1::jsonb ORDER BY id`,
    [JSON.stringify([{ contextName }])],
  );
  return rows.map(toSegment);
}

/** Names of those segments that belong to a project other than `project`, by name. */
export async function segmentNamesOutsideProject(
  db: Queryable,
  ids: readonly number[],
  project: string,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ name: string }>(
    `SELECT name FROM segments
      WHERE id = ANY($1::int[]) AND project IS NOT NULL AND project <> $2
      ORDER BY name`,
    [ids, project],
  );
  return rows.map((r) => r.name);
}
