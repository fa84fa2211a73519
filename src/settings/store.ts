import type { Queryable } from '../db/database.js';
import { withRowLock } from '../db/lock.js';

export async function findSetting<T>(db: Queryable, name: string): Promise<T | null> {
  const { rows } = await db.query<{ content: T }>('SELECT content FROM settings WHERE name = $1', [name]);
  return rows[0]?.content ?? null;
}

/**
 * The setting as `findSetting` reads it, with its row locked until the transaction ends, for a
 * change that records what was there before. A setting never saved gets its row now (holding
 * JSON null, read as absent, and overwritten before the transaction commits), so that even the
 * first two saves of it happen one after the other.
 */
export async function lockSetting<T>(db: Queryable, name: string): Promise<T | null> {
  await db.query(`INSERT INTO settings (name, content) VALUES ($1, 'null') ON CONFLICT DO NOTHING`, [name]);
  const { rows } = await db.query<{ content: T }>(
    withRowLock('SELECT content FROM settings WHERE name = $1', 'update'),
    [name],
  );
  return rows[0]?.content ?? null;
}

/** Saves the setting unless it is there already (then it stays as it is). */
export async function saveSettingOnce(db: Queryable, name: string, content: unknown): Promise<void> {
  await db.query(`INSERT INTO settings (name, content) VALUES ($1, $2::jsonb) ON CONFLICT DO NOTHING`, [
    name,
    JSON.stringify(content),
  ]);
}

export async function saveSetting(db: Queryable, name: string, content: unknown): Promise<void> {
  await db.query(
    `INSERT INTO settings (name, content) VALUES ($1, $2::jsonb)
     ON CONFLICT (name) DO UPDATE SET content = EXCLUDED.content, updated_at = now()`,
    [name, JSON.stringify(content)],
  );
}
