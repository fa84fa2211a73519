import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { TagType } from './types.js';

export async function listTagTypes(db: Queryable): Promise<TagType[]> {
  const { rows } = await db.query<TagType>('SELECT name, description, icon FROM tag_types ORDER BY name');
  return rows;
}

export async function findTagType(
  db: Queryable,
  name: string,
  { lock }: ReadOptions = {},
): Promise<TagType | null> {
  const { rows } = await db.query<TagType>(
    withRowLock('SELECT name, description, icon FROM tag_types WHERE name = $1', lock),
    [name],
  );
  return rows[0] ?? null;
}

export async function insertTagType(db: Queryable, t: TagType): Promise<TagType> {
  const { rows } = await db.query<TagType>(
    'INSERT INTO tag_types (name, description, icon) VALUES ($1, $2, $3) RETURNING name, description, icon',
    [t.name, t.description, t.icon],
  );
  return rows[0]!;
}

export async function updateTagType(db: Queryable, t: TagType): Promise<TagType> {
  const { rows } = await db.query<TagType>(
    'UPDATE tag_types SET description = $2, icon = $3 WHERE name = $1 RETURNING name, description, icon',
    [t.name, t.description, t.icon],
  );
  return rows[0]!;
}

/** Deletes the type with its tags and their places on features. */
export async function deleteTagType(db: Queryable, name: string): Promise<void> {
  await db.query('DELETE FROM tag_types WHERE name = $1', [name]);
}

/** Creates the tag types, or overwrites the description and icon of those that exist. */
export async function upsertTagTypes(db: Queryable, rows: TagType[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO tag_types (name, description, icon)
     SELECT r.name, r.description, r.icon FROM jsonb_to_recordset($1::jsonb) AS r(name text, description text, icon text)
     ON CONFLICT (name) DO UPDATE SET description = EXCLUDED.description, icon = EXCLUDED.icon`,
    [JSON.stringify(rows)],
  );
}
