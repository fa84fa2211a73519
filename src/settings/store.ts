import type { Queryable } from '../db/database.js';

export async function findSetting<T>(db: Queryable, name: string): Promise<T | null> {
  const { rows } = await db.query<{ content: T }>('SELECT content FROM settings WHERE name = $1', [name]);
  return rows[0]?.content ?? null;
}

export async function saveSetting(db: Queryable, name: string, content: unknown): Promise<void> {
  await db.query(
    `INSERT INTO settings (name, content) VALUES ($1, $2::jsonb)
     ON CONFLICT (name) DO UPDATE SET content = EXCLUDED.content, updated_at = now()`,
    [name, JSON.stringify(content)],
  );
}
