import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any constant works; it only has to be the same in every replica.
const MIGRATION_LOCK = 4_242_001;

/**
 * Files renumbered so that they run in file order (the numbers once had gaps). Databases migrated
 * before recorded the old names; the files' content did not change, so only the name is mapped.
 */
const RENAMED: ReadonlyArray<readonly [before: string, after: string]> = [
  ['005_access.sql', '003_access.sql'],
  ['006_sdk.sql', '004_sdk.sql'],
];

export async function listMigrations(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
}

/**
 * Applies the numbered SQL files not applied yet, all in one transaction under an advisory lock,
 * so replicas starting together migrate once and a failing migration leaves nothing behind.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = await listMigrations();
  const scripts = await Promise.all(files.map((f) => readFile(MIGRATIONS_DIR + f, 'utf8')));
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const [before, after] of RENAMED) {
      await tx.query('UPDATE schema_migrations SET name = $2 WHERE name = $1', [before, after]);
    }
    const done = await tx.query<{ name: string }>('SELECT name FROM schema_migrations');
    const applied = new Set(done.rows.map((r) => r.name));
    const now: string[] = [];
    for (const [i, file] of files.entries()) {
      if (applied.has(file)) continue;
      await tx.exec(scripts[i]!);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      now.push(file);
    }
    return now;
  });
}
