import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { takeAdvisoryLock } from './advisory-locks.js';
import { MIGRATIONS_DIR } from './assets.js';
import type { Database, Transaction } from './database.js';

const MIGRATION_NAME = /^(\d{3})_[\w-]+\.sql$/;

/**
 * Files renumbered so that they run in file order (the numbers once had gaps). Databases migrated
 * before recorded the old names; the files' content did not change, so only the name is mapped.
 */
const RENAMED: ReadonlyArray<readonly [before: string, after: string]> = [
  ['005_access.sql', '003_access.sql'],
  ['006_sdk.sql', '004_sdk.sql'],
];

/** Flagpole refuses to start; the message says what is wrong and what to do, a stack would add nothing. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

interface Migration {
  name: string;
  number: number;
  sql: string;
  checksum: string;
}

interface AppliedMigration {
  name: string;
  checksum: string | null;
}

export async function listMigrations(dir: string = MIGRATIONS_DIR): Promise<string[]> {
  return (await readdir(dir)).filter((f) => MIGRATION_NAME.test(f)).sort();
}

/**
 * Applies the numbered SQL files not applied yet, all in one transaction under an advisory lock,
 * so replicas starting together migrate once and a failing migration leaves nothing behind.
 * Applied files are append-only: a database whose history differs from the files is refused
 * (MigrationError) instead of being migrated into a schema no new database would have.
 */
export async function migrate(db: Database, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await loadMigrations(dir);
  if (await upToDate(db, migrations)) return [];
  return db.transaction(async (tx) => {
    await takeAdvisoryLock(tx, 'migrations');
    await upgradeBookkeeping(tx);
    const applied = await readHistory(tx);
    checkHistory(migrations, applied, dir);
    await fillMissingChecksums(tx, migrations, applied);
    const done = new Set(applied.map((m) => m.name));
    const pending = migrations.filter((m) => !done.has(m.name));
    for (const m of pending) {
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [m.name, m.checksum]);
    }
    return pending.map((m) => m.name);
  });
}

/**
 * Whether every file is applied, unchanged, and nothing else is: then a start needs no lock and no
 * transaction (one query). Anything else — including a database that has no bookkeeping yet —
 * goes the careful way, which also words the refusals.
 */
async function upToDate(db: Database, migrations: Migration[]): Promise<boolean> {
  let applied: AppliedMigration[];
  try {
    applied = (await db.query<AppliedMigration>('SELECT name, checksum FROM schema_migrations')).rows;
  } catch (error) {
    const code = (error as { code?: string }).code;
    // undefined table or column: a new database, or bookkeeping from before checksums
    if (code === '42P01' || code === '42703') return false;
    throw error;
  }
  const checksums = new Map(applied.map((m) => [m.name, m.checksum]));
  return (
    applied.length === migrations.length && migrations.every((m) => checksums.get(m.name) === m.checksum)
  );
}

async function loadMigrations(dir: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations = await Promise.all(files.map((name) => loadMigration(dir, name)));
  checkNumbering(migrations, dir);
  return migrations;
}

async function loadMigration(dir: string, name: string): Promise<Migration> {
  const number = MIGRATION_NAME.exec(name)?.[1];
  if (!number) {
    throw new MigrationError(
      `${name} in ${dir} is not named like a migration (three digits, an underscore, a name: ` +
        '005_add_index.sql), so it would never run. Rename it to the next free number or move it out ' +
        'of the migrations directory.',
    );
  }
  // Hashed as stored, so that any change, even of line endings, is one.
  const bytes = await readFile(path.join(dir, name));
  return {
    name,
    number: Number(number),
    sql: bytes.toString('utf8'),
    checksum: createHash('sha256').update(bytes).digest('hex'),
  };
}

function checkNumbering(migrations: Migration[], dir: string): void {
  const next = nextNumber(migrations);
  for (const [i, m] of migrations.entries()) {
    const previous = migrations[i - 1];
    if (previous && previous.number === m.number) {
      throw new MigrationError(
        `Migrations ${previous.name} and ${m.name} in ${dir} share the number ${numbered(m.number)}. ` +
          'Migrations run once each in number order and applied ones are append-only, so every file ' +
          `needs its own number: keep the released one as it is and renumber the other to ${next}.`,
      );
    }
    if (m.number !== i + 1) {
      throw new MigrationError(
        `Migration ${m.name} in ${dir} should be number ${numbered(i + 1)}: migration numbers run ` +
          '001, 002, 003, … without gaps, so that the files run in the same order on every database. ' +
          'Applied migrations are append-only, so a gap could never be filled without running a file ' +
          'out of order: renumber the files that were never released so that the numbers follow on.',
      );
    }
  }
}

/** Flagpole creates its bookkeeping table itself, so it also brings older ones up to date. */
async function upgradeBookkeeping(tx: Transaction): Promise<void> {
  await tx.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       name text PRIMARY KEY,
       applied_at timestamptz NOT NULL DEFAULT now(),
       checksum text
     );
     ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text;`,
  );
  for (const [before, after] of RENAMED) {
    await tx.query('UPDATE schema_migrations SET name = $2 WHERE name = $1', [before, after]);
  }
}

async function readHistory(tx: Transaction): Promise<AppliedMigration[]> {
  const { rows } = await tx.query<AppliedMigration>(
    'SELECT name, checksum FROM schema_migrations ORDER BY name',
  );
  return rows;
}

function checkHistory(migrations: Migration[], applied: AppliedMigration[], dir: string): void {
  const files = new Map(migrations.map((m) => [m.name, m]));
  const next = nextNumber(migrations);
  for (const { name, checksum } of applied) {
    const file = files.get(name);
    if (!file) {
      throw new MigrationError(
        `This database has migration ${name} applied, but ${dir} has no such file: the database was ` +
          'migrated by a newer Flagpole (or the file was renamed or deleted). Applied migrations are ' +
          'append-only and never go away: run the Flagpole version that migrated this database, or a ' +
          'newer one, or restore the file under its name.',
      );
    }
    if (checksum !== null && checksum !== file.checksum) {
      throw new MigrationError(
        `Migration ${name} in ${dir} has changed since it was applied to this database (sha256 ` +
          `${checksum.slice(0, 12)}… then, ${file.checksum.slice(0, 12)}… now; line endings count too). ` +
          'Applied migrations are append-only: restore the file exactly as it was applied (from version ' +
          `control) and put the change in a new migration, ${next}.`,
      );
    }
  }
  checkOrder(migrations, new Set(applied.map((m) => m.name)), next);
}

/** A file not applied yet below an applied one would run here in another order than on a new database. */
function checkOrder(migrations: Migration[], applied: Set<string>, next: string): void {
  const last = migrations.findLast((m) => applied.has(m.name));
  if (!last) return;
  const early = migrations.find((m) => m.number < last.number && !applied.has(m.name));
  if (!early) return;
  throw new MigrationError(
    `Migration ${early.name} is not applied to this database, but ${last.name}, which comes after it, ` +
      'already is. Migrations run in file order and applied ones are append-only, so the files must ' +
      'list the applied migrations first, under the names they were applied with: if ' +
      `${early.name} is new, number it after ${last.name} (the next free number is ${next}).`,
  );
}

/** Rows recorded before Flagpole kept checksums take the file's as it is now, once. */
async function fillMissingChecksums(
  tx: Transaction,
  migrations: Migration[],
  applied: AppliedMigration[],
): Promise<void> {
  const unchecked = new Set(applied.filter((m) => m.checksum === null).map((m) => m.name));
  for (const m of migrations.filter((m) => unchecked.has(m.name))) {
    await tx.query('UPDATE schema_migrations SET checksum = $2 WHERE name = $1', [m.name, m.checksum]);
  }
}

/** The number a new migration takes (the files are sorted). */
function nextNumber(migrations: Migration[]): string {
  return numbered((migrations.at(-1)?.number ?? 0) + 1);
}

function numbered(n: number): string {
  return String(n).padStart(3, '0');
}
