import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import type { Database } from '../src/db/database.js';
import { openEmbedded } from '../src/db/embedded.js';
import { listMigrations, migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { silentLogger } from '../src/log.js';

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

/**
 * A migrated PostgreSQL database that every test database of this run is copied from. Each run
 * makes its own (migrating takes well under a second) and drops it at the end, so runs sharing
 * one server never touch each other's.
 */
export async function createPostgresTemplate(
  baseUrl: string,
): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `flagpole_template_${await migrationsHash()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const db = await openPostgres(databaseUrl(baseUrl, name), { pool: { max: 1 }, log: silentLogger });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  return {
    name,
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
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
  /** The embedded template as a tar (not gzipped), which PGlite loads fastest. */
  embeddedTemplateTar?: string;
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
    const db = await openPostgres(url, { pool: { max: 4 }, log: silentLogger });
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
  const template = readFileSync(setup.embeddedTemplateTar!);
  const db = await openEmbedded({ template: () => template });
  return { db, drop: () => db.close().catch(() => {}) };
}
