import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import type { Database } from '../src/db/database.js';
import { openEmbedded } from '../src/db/embedded.js';
import { listMigrations, migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';

/** Names the template after the migrations it holds, so a changed migration makes a new one. */
export async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await listMigrations()) {
    hash.update(file);
    hash.update(await readFile(new URL(`../src/db/migrations/${file}`, import.meta.url)));
  }
  return hash.digest('hex').slice(0, 12);
}

export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A migrated PostgreSQL database that every test database is copied from. */
export async function ensurePostgresTemplate(baseUrl: string): Promise<string> {
  const name = `flagpole_template_${await migrationsHash()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'flagpole\\_template\\_%'`,
    );
    // Templates of older migrations are of no use any more.
    for (const { datname } of rows) {
      if (datname !== name) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
    if (rows.some((r) => r.datname === name)) return name;
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${building}`);
    const db = await openPostgres(databaseUrl(baseUrl, building), 1);
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    // Renamed only once complete, so a half-built template is never used.
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`).catch(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
    });
    return name;
  } finally {
    await admin.end();
  }
}

export interface TestDatabase {
  db: Database;
  /** Connection string of a PostgreSQL test database (absent for the embedded one). */
  url?: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(setup: {
  postgresUrl?: string;
  postgresTemplate?: string;
  embeddedTemplate?: string;
}): Promise<TestDatabase> {
  if (setup.postgresUrl && setup.postgresTemplate) {
    const name = `flagpole_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: setup.postgresUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${setup.postgresTemplate}`);
    } finally {
      await admin.end();
    }
    const url = databaseUrl(setup.postgresUrl, name);
    const db = await openPostgres(url, 4);
    let dropped = false;
    return {
      db,
      url,
      async drop() {
        if (dropped) return;
        dropped = true;
        await db.close().catch(() => {});
        const c = new pg.Client({ connectionString: setup.postgresUrl });
        await c.connect();
        try {
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        } finally {
          await c.end();
        }
      },
    };
  }
  const template = readFileSync(setup.embeddedTemplate!);
  const db = await openEmbedded({ template });
  return { db, drop: () => db.close().catch(() => {}) };
}
