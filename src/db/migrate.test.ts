import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openEmbedded } from './embedded.js';
import { listMigrations, MigrationError, migrate } from './migrate.js';

const BUNDLED = new URL('./migrations/', import.meta.url);

// initdb takes seconds; a dump of one blank database opens in a fraction of that.
let blank: Uint8Array;
beforeAll(async () => {
  const db = await openEmbedded({});
  blank = new Uint8Array(await (await db.pglite.dumpDataDir('gzip')).arrayBuffer());
  await db.close();
});

const opened: Database[] = [];
async function newDatabase(): Promise<Database> {
  const db = await openEmbedded({ template: () => blank });
  opened.push(db);
  return db;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

const tmpDirs: string[] = [];
function tmpDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flagpole-migrate-test-'));
  tmpDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

function migrationsDir(files: Record<string, string>): string {
  const dir = tmpDir();
  for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(dir, name), sql);
  return dir;
}

// 002 only works after 001, so running them out of order shows.
const A = { '001_a.sql': 'CREATE TABLE a (id integer);\n' };
const B = { '002_b.sql': 'ALTER TABLE a ADD COLUMN b integer;\n' };
const C = { '003_c.sql': 'CREATE TABLE c (id integer);\n' };

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function history(db: Database): Promise<{ name: string; checksum: string | null }[]> {
  const { rows } = await db.query<{ name: string; checksum: string | null }>(
    'SELECT name, checksum FROM schema_migrations ORDER BY name',
  );
  return rows;
}

/** What Flagpole left behind before it kept checksums: the names only, in a table without the column. */
async function migrateLikeOldFlagpole(db: Database, scripts: Record<string, string>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.exec(
      'CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const [name, sql] of Object.entries(scripts)) {
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    }
  });
}

async function rejection(promise: Promise<unknown>): Promise<MigrationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MigrationError);
  return error as MigrationError;
}

describe('migrate', () => {
  it('applies each file once, in file order, with its checksum', async () => {
    const db = await newDatabase();
    const dir = migrationsDir({ ...A, ...B });
    expect(await migrate(db, dir)).toEqual(['001_a.sql', '002_b.sql']);
    expect(await migrate(db, dir)).toEqual([]);
    expect(await history(db)).toEqual([
      { name: '001_a.sql', checksum: sha256(A['001_a.sql']) },
      { name: '002_b.sql', checksum: sha256(B['002_b.sql']) },
    ]);
  });

  it('refuses an applied file whose content changed, and names it', async () => {
    const db = await newDatabase();
    const dir = migrationsDir({ ...A, ...B });
    await migrate(db, dir);
    writeFileSync(path.join(dir, '002_b.sql'), 'ALTER TABLE a ADD COLUMN b bigint;\n');
    writeFileSync(path.join(dir, '003_c.sql'), C['003_c.sql']);
    const error = await rejection(migrate(db, dir));
    expect(error.message).toContain('Migration 002_b.sql');
    expect(error.message).toContain('append-only');
    expect(error.message).toContain('new migration, 004');
    // nothing after the refusal ran
    expect((await history(db)).map((r) => r.name)).toEqual(['001_a.sql', '002_b.sql']);
  });

  it('counts a change of line endings as a change', async () => {
    const db = await newDatabase();
    const dir = migrationsDir({ ...A, ...B });
    await migrate(db, dir);
    writeFileSync(path.join(dir, '001_a.sql'), A['001_a.sql'].replace('\n', '\r\n'));
    expect((await rejection(migrate(db, dir))).message).toContain('001_a.sql');
  });

  it('refuses a database with an applied migration it has no file for', async () => {
    const db = await newDatabase();
    await migrate(db, migrationsDir({ ...A, ...B }));
    const error = await rejection(migrate(db, migrationsDir(A)));
    expect(error.message).toContain('002_b.sql');
    expect(error.message).toContain('newer Flagpole');
  });

  it('refuses a file not applied yet that is numbered below an applied one', async () => {
    const db = await newDatabase();
    await migrateLikeOldFlagpole(db, { ...A, ...C });
    const error = await rejection(migrate(db, migrationsDir({ ...A, ...B, ...C })));
    expect(error.message).toContain('Migration 002_b.sql is not applied');
    expect(error.message).toContain('003_c.sql');
    expect((await db.query(`SELECT to_regclass('c') AS t`)).rows).toEqual([{ t: 'c' }]);
    const columns = await db.query(`SELECT 1 FROM information_schema.columns WHERE column_name = 'b'`);
    expect(columns.rows).toEqual([]);
  });

  it('refuses two files with the same number', async () => {
    const db = await newDatabase();
    const error = await rejection(migrate(db, migrationsDir({ ...A, ...B, '002_c.sql': C['003_c.sql'] })));
    expect(error.message).toContain('002_b.sql and 002_c.sql');
    expect(error.message).toContain('renumber the other to 003');
    expect((await db.query(`SELECT to_regclass('a') AS t`)).rows).toEqual([{ t: null }]);
  });

  it('refuses numbers with a gap or not starting at 001', async () => {
    const db = await newDatabase();
    const gap = await rejection(migrate(db, migrationsDir({ ...A, ...C })));
    expect(gap.message).toContain('Migration 003_c.sql');
    expect(gap.message).toContain('should be number 002');
    const late = await rejection(migrate(db, migrationsDir(B)));
    expect(late.message).toContain('should be number 001');
  });

  it('refuses a .sql file that is not named like a migration, which would never run', async () => {
    const db = await newDatabase();
    const error = await rejection(migrate(db, migrationsDir({ ...A, '2_b.sql': B['002_b.sql'] })));
    expect(error.message).toContain('2_b.sql');
  });

  it('fills in the checksums of migrations applied before Flagpole kept them, then holds to them', async () => {
    const db = await newDatabase();
    await migrateLikeOldFlagpole(db, A);
    const dir = migrationsDir({ ...A, ...B });
    expect(await migrate(db, dir)).toEqual(['002_b.sql']);
    expect(await history(db)).toEqual([
      { name: '001_a.sql', checksum: sha256(A['001_a.sql']) },
      { name: '002_b.sql', checksum: sha256(B['002_b.sql']) },
    ]);
    writeFileSync(path.join(dir, '001_a.sql'), 'CREATE TABLE a (id bigint);\n');
    expect((await rejection(migrate(db, dir))).message).toContain('001_a.sql');
  });
});

describe('the bundled migrations', () => {
  const bundled = (name: string) => readFileSync(new URL(name, BUNDLED), 'utf8');

  /** A database migrated before the renumbering, as its schema_migrations recorded it. */
  async function migratedByOldFlagpole(featureModel = bundled('002_feature_model.sql')): Promise<Database> {
    const db = await newDatabase();
    await migrateLikeOldFlagpole(db, {
      '001_foundation.sql': bundled('001_foundation.sql'),
      '002_feature_model.sql': featureModel,
      '005_access.sql': bundled('003_access.sql'),
      '006_sdk.sql': bundled('004_sdk.sql'),
    });
    return db;
  }

  async function hasProjectName(db: Database): Promise<boolean> {
    const { rows } = await db.query(
      `SELECT 1 FROM information_schema.columns
        WHERE table_name = 'feature_strategies' AND column_name = 'project_name'`,
    );
    return rows.length > 0;
  }

  it('apply cleanly to a new database, once', async () => {
    const db = await newDatabase();
    expect(await migrate(db)).toEqual(await listMigrations());
    expect(await migrate(db)).toEqual([]);
    expect(await hasProjectName(db)).toBe(false);
  });

  it('take databases that recorded the old names 005_access.sql and 006_sdk.sql, without applying them again', async () => {
    const db = await migratedByOldFlagpole();
    const files = await listMigrations();
    // Only what came after 004: the renamed 003 and 004 are not applied again.
    expect(await migrate(db)).toEqual(files.filter((name) => name >= '005'));
    expect(files.filter((name) => name >= '005')).toContain('005_repair_feature_strategies.sql');
    expect(await history(db)).toEqual(
      files.map((name) => ({ name, checksum: createHash('sha256').update(bundled(name)).digest('hex') })),
    );
  });

  it('drop the project_name column that the original 002 gave feature_strategies', async () => {
    // the original had the column where the file now explains why there is none
    const original = bundled('002_feature_model.sql').replace(
      "  -- the strategy's project is its feature's project (it moves with the feature)\n",
      '  project_name text NOT NULL,\n',
    );
    const db = await migratedByOldFlagpole(original);
    expect(await hasProjectName(db)).toBe(true);
    await migrate(db);
    expect(await hasProjectName(db)).toBe(false);
  });
});

describe('start', () => {
  it('prints only the message, without a stack, and exits 1 when the migrations do not match', async () => {
    const dataDir = tmpDir();
    const db = await openEmbedded({ dataDir, template: () => blank });
    await migrate(db);
    await db.query(`INSERT INTO schema_migrations (name, checksum) VALUES ('999_from_the_future.sql', '')`);
    await db.close();

    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0' };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));

    expect(code).toBe(1);
    expect(output).toContain('This database has migration 999_from_the_future.sql applied');
    expect(output).not.toMatch(/^\s+at /m);
    expect(output.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
