import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { Tag } from './types.js';

export async function listTags(db: Queryable, type?: string): Promise<Tag[]> {
  const { rows } = await db.query<Tag>(
    'SELECT type, value FROM tags WHERE ($1::text IS NULL OR type = $1) ORDER BY type, value',
    [type ?? null],
  );
  return rows;
}

export async function tagExists(db: Queryable, tag: Tag, { lock }: ReadOptions = {}): Promise<boolean> {
  const { rows } = await db.query(withRowLock('SELECT 1 FROM tags WHERE type = $1 AND value = $2', lock), [
    tag.type,
    tag.value,
  ]);
  return rows.length > 0;
}

export async function insertTag(db: Queryable, tag: Tag): Promise<void> {
  await db.query('INSERT INTO tags (type, value) VALUES ($1, $2)', [tag.type, tag.value]);
}

/**
 * Creates the tag unless it exists, whoever is creating it at the same moment: false when it was
 * there (an insert of it still in flight is waited for).
 */
export async function insertTagIfAbsent(db: Queryable, tag: Tag): Promise<boolean> {
  const { rowCount } = await db.query(
    'INSERT INTO tags (type, value) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [tag.type, tag.value],
  );
  return rowCount > 0;
}

/** Deletes the tag; the features that carried it lose it. */
export async function deleteTag(db: Queryable, tag: Tag): Promise<void> {
  await db.query('DELETE FROM tags WHERE type = $1 AND value = $2', [tag.type, tag.value]);
}

/** Creates those of the tags that do not exist yet; answers the ones created. */
export async function insertTagsIfAbsent(db: Queryable, tags: Tag[]): Promise<Tag[]> {
  if (tags.length === 0) return [];
  const { rows } = await db.query<Tag>(
    `INSERT INTO tags (type, value)
     SELECT r.type, r.value FROM jsonb_to_recordset($1::jsonb) AS r(type text, value text)
     ON CONFLICT DO NOTHING RETURNING type, value`,
    [JSON.stringify(tags)],
  );
  return rows;
}

/** Deletes every tag; the features that carried them lose them. Answers how many there were. */
export async function deleteAllTags(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM tags');
  return rowCount;
}
