import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../src/db/database.js';
import { type EmbeddedEngine, openEmbedded } from '../src/db/embedded.js';
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

async function asAdmin<T>(baseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * On PostgreSQL 15 every DROP DATABASE waits for a checkpoint of all that was written meanwhile:
 * seconds each while other files write. Drops waiting together share one, so they go in batches
 * (of few enough connections to leave the server room).
 */
const DROPS_AT_ONCE = 20;

function dropDatabase(baseUrl: string, name: string): Promise<unknown> {
  return asAdmin(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

async function dropDatabases(baseUrl: string, names: string[]): Promise<void> {
  for (let i = 0; i < names.length; i += DROPS_AT_ONCE) {
    await Promise.all(names.slice(i, i + DROPS_AT_ONCE).map((name) => dropDatabase(baseUrl, name)));
  }
}

/**
 * A migrated PostgreSQL database that every test database of this run is copied from, and named
 * after (`<template>_<random>`). Each run makes its own (migrating takes well under a second) and
 * at its end drops it with whatever copies are left, so runs sharing one server never touch each
 * other's.
 */
export async function createPostgresTemplate(
  baseUrl: string,
): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `flagpole_template_${await migrationsHash()}_${randomBytes(4).toString('hex')}`;
  await asAdmin(baseUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const db = await openPostgres(databaseUrl(baseUrl, name), { pool: { max: 1 }, log: silentLogger });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  return {
    name,
    async drop() {
      const { rows } = await asAdmin(baseUrl, (c) =>
        c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [
          `${name}_`,
        ]),
      );
      await dropDatabases(
        baseUrl,
        rows.map((row) => row.datname),
      );
      await dropDatabase(baseUrl, name);
    },
  };
}

export interface TestDatabase {
  db: Database;
  /** Connection string of a PostgreSQL test database (absent for the embedded one). */
  url?: string;
  /** Closes it and lets it go (a PostgreSQL one is dropped in the background, or at the run's end). */
  drop(): Promise<void>;
}

let engine: Promise<EmbeddedEngine> | undefined;
// Node's WebAssembly global, which the project's type libraries declare as types only.
const wasmRuntime = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }
).WebAssembly;

/**
 * PGlite's WebAssembly and files, read and compiled once for every database a worker opens (a test
 * file's database opened in ~0.5 s instead of ~0.6 s).
 */
function embeddedEngine(): Promise<EmbeddedEngine> {
  engine ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, files] = await Promise.all([
      readFile(path.join(dist, 'pglite.wasm')),
      readFile(path.join(dist, 'pglite.data')),
    ]);
    return { pgliteWasmModule: await wasmRuntime.compile(wasm), fsBundle: new Blob([files]) };
  })();
  return engine;
}

export async function createTestDatabase(setup: {
  postgresUrl?: string;
  postgresTemplate?: string;
  /** The embedded template as a tar (not gzipped), which PGlite loads fastest. */
  embeddedTemplateTar?: string;
}): Promise<TestDatabase> {
  if (setup.postgresUrl && setup.postgresTemplate) {
    const name = `${setup.postgresTemplate}_${randomBytes(6).toString('hex')}`;
    await asAdmin(setup.postgresUrl, async (c) => {
      await c.query(`CREATE DATABASE ${name} TEMPLATE ${setup.postgresTemplate}`);
      // A commit does not wait for its WAL to reach the disk: what a commit makes visible, and
      // when, is the same, and only a crash of the server itself could lose one. Waiting for the
      // flush was most of the time of every write the tests make.
      await c.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    });
    const url = databaseUrl(setup.postgresUrl, name);
    const db = await openPostgres(url, { pool: { max: 4 }, log: silentLogger });
    return {
      db,
      url,
      async drop() {
        await db.close().catch(() => {});
        // Not waited for (the checkpoint takes seconds, and no test needs the database gone): one
        // still there when the run ends is dropped then, with the template.
        dropDatabase(setup.postgresUrl!, name).catch(() => {});
      },
    };
  }
  const template = readFileSync(setup.embeddedTemplateTar!);
  const db = await openEmbedded({ template: () => template, engine: await embeddedEngine() });
  return { db, drop: () => db.close().catch(() => {}) };
}
