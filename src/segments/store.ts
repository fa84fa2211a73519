import type { Constraint } from '../constraints/rules.js';
import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { Segment } from './types.js';

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

export interface SegmentRow extends SegmentValues {
  id: number;
  createdBy: string | null;
  /** ISO 8601; null: now. Only a new segment takes it. */
  createdAt: string | null;
}

/**
 * Creates the segments with the ids given, or overwrites those that exist; new segments made later
 * still get higher ids than any of them.
 */
export async function upsertSegments(db: Queryable, rows: SegmentRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO segments (id, name, description, project, constraints, created_by, created_at)
     SELECT r.id, r.name, r.description, r.project, r.constraints, r.created_by, coalesce(r.created_at, now())
       FROM jsonb_to_recordset($1::jsonb) AS r(id integer, name text, description text, project text,
                                               constraints jsonb, created_by text, created_at timestamptz)
     ON CONFLICT (id) DO UPDATE
       SET name = EXCLUDED.name, description = EXCLUDED.description, project = EXCLUDED.project,
           constraints = EXCLUDED.constraints`,
    [
      JSON.stringify(
        rows.map((r) => ({
          id: r.id,
          name: r.name,
          description: r.description,
          project: r.project,
          constraints: r.constraints,
          created_by: r.createdBy,
          created_at: r.createdAt,
        })),
      ),
    ],
  );
  // The sequence moves past the highest id, never back: an id once given is not given again.
  await db.query(
    `SELECT setval(pg_get_serial_sequence('segments', 'id'),
                   greatest(max(id), (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM segments_id_seq)))
       FROM segments`,
  );
}

/** Deletes every segment (none may be in use); answers their names. */
export async function deleteAllSegments(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('DELETE FROM segments RETURNING name');
  return rows.map((r) => r.name).sort();
}
