import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { databaseUrl } from '../../test/database.js';
import { isPostgres, STRONG_PASSWORD, startTestServer } from '../../test/server.js';
import { buildApp } from '../app.js';
import { prepareDatabase } from '../bootstrap.js';
import { createContext } from '../compose.js';
import { loadConfig } from '../config.js';
import { silentLogger } from '../log.js';
import type { Database } from './database.js';
import { openEmbedded } from './embedded.js';
import { acquireDirectoryLock, DirectoryLockedError } from './lock-file.js';
import { listMigrations, migrate } from './migrate.js';
import { openPostgres } from './postgres.js';

const tmpDirs: string[] = [];
function tmpDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flagpole-db-test-'));
  tmpDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

async function createAndReadBack(open: () => Promise<Database>) {
  const config = loadConfig({});
  let db = await open();
  await prepareDatabase(createContext(config, db, silentLogger));
  let app = await buildApp(createContext(config, db, silentLogger));
  const session = await app.inject({
    method: 'POST',
    url: '/auth/simple/login',
    payload: { username: 'admin', password: 'unleash4all' },
  });
  const cookie = String(session.headers['set-cookie']).split(';')[0]!;
  const created = await app.inject({
    method: 'POST',
    url: '/api/admin/user-admin',
    headers: { cookie },
    payload: { username: 'survivor', password: STRONG_PASSWORD, rootRole: 3 },
  });
  expect(created.statusCode).toBe(201);
  await app.close();
  await db.close();

  db = await open();
  expect(await migrate(db)).toEqual([]);
  await prepareDatabase(createContext(config, db, silentLogger));
  app = await buildApp(createContext(config, db, silentLogger));
  const again = await app.inject({
    method: 'POST',
    url: '/auth/simple/login',
    payload: { username: 'survivor', password: STRONG_PASSWORD },
  });
  expect(again.statusCode).toBe(200);
  // the session made before the restart is still good
  const me = await app.inject({ method: 'GET', url: '/api/admin/user', headers: { cookie } });
  expect(me.statusCode).toBe(200);
  const users = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM users WHERE username = 'admin'`,
  );
  expect(users.rows[0]!.n).toBe(1);
  await app.close();
  await db.close();
}

describe('migrations', () => {
  it('apply once: a second run applies nothing', async () => {
    const server = await startTestServer();
    try {
      expect(await migrate(server.ctx.db)).toEqual([]);
      const { rows } = await server.ctx.db.query<{ name: string }>(
        'SELECT name FROM schema_migrations ORDER BY name',
      );
      expect(rows.map((r) => r.name)).toEqual(await listMigrations());
    } finally {
      await server.close();
    }
  });

  it.runIf(isPostgres())('run once when several replicas start together', async () => {
    const base = inject('postgresUrl');
    const name = `flagpole_migrate_${Date.now()}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const dbs = await Promise.all(
        [1, 2, 3].map(() => openPostgres(databaseUrl(base, name), { pool: { max: 2 }, log: silentLogger })),
      );
      const applied = await Promise.all(dbs.map((db) => migrate(db)));
      expect(applied.flat().sort()).toEqual(await listMigrations());
      await Promise.all(dbs.map((db) => db.close()));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it.runIf(isPostgres())(
    'make the first admin and each start-up token once when replicas start together',
    async () => {
      const base = inject('postgresUrl');
      const name = `flagpole_prepare_${Date.now()}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      try {
        const config = loadConfig({
          INIT_ADMIN_API_TOKENS: `*:*.${'a'.repeat(56)}`,
          INIT_CLIENT_API_TOKENS: `default:development.${'c'.repeat(56)},default:production.${'p'.repeat(56)}`,
        });
        const dbs = await Promise.all(
          [1, 2, 3].map(() => openPostgres(databaseUrl(base, name), { pool: { max: 2 }, log: silentLogger })),
        );
        await Promise.all(dbs.map((db) => prepareDatabase(createContext(config, db, silentLogger))));
        const { rows } = await dbs[0]!.query<{ users: number; tokens: number; events: number }>(
          `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM api_tokens) AS tokens,
                (SELECT count(*)::int FROM events WHERE type = 'api-token-created') AS events`,
        );
        expect(rows[0]).toEqual({ users: 1, tokens: 3, events: 3 });
        await Promise.all(dbs.map((db) => db.close()));
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
  );
});

describe('restarting keeps the data', () => {
  it('on the embedded database', async () => {
    const dataDir = tmpDir();
    const file = inject('embeddedTemplate');
    const template = file ? readFileSync(file) : undefined;
    await createAndReadBack(() => openEmbedded({ dataDir, template: () => template }));
  }, 60_000);

  it('on the embedded database after a first start stopped while it unpacked the template', async () => {
    const file = inject('embeddedTemplate');
    if (!file) return;
    const template = readFileSync(file);
    const dataDir = tmpDir();
    // The template as far as its PG_VERSION, then an entry that stops the unpacking there: what a
    // first start killed at that moment leaves (PostgreSQL's configuration files never written).
    const tar = gunzipSync(template);
    let end = 0;
    for (let at = 0; end === 0; ) {
      const name = tar
        .subarray(at, at + 100)
        .toString('utf8')
        .replace(/\0.*$/s, '');
      const size = Number.parseInt(
        tar
          .subarray(at + 124, at + 136)
          .toString('ascii')
          .trim() || '0',
        8,
      );
      at += 512 + Math.ceil(size / 512) * 512;
      if (name === '/PG_VERSION') end = at;
    }
    const stop = Buffer.alloc(512);
    stop.write('/postgresql.conf', 0, 'utf8');
    stop.write('2', 156, 'ascii');
    const cut = gzipSync(Buffer.concat([tar.subarray(0, end), stop]));
    await expect(openEmbedded({ dataDir, template: () => cut })).rejects.toThrow(
      /kind this reader does not unpack/,
    );

    await createAndReadBack(() => openEmbedded({ dataDir, template: () => template }));
    expect(readdirSync(dataDir).sort()).toEqual(['pgdata']);
  }, 60_000);

  it.runIf(isPostgres())('on PostgreSQL', async () => {
    const server = await startTestServer();
    const url = server.database.url!;
    await server.app.close();
    await server.ctx.db.close();
    try {
      await createAndReadBack(() => openPostgres(url, { pool: { max: 2 }, log: silentLogger }));
    } finally {
      await server.database.drop();
    }
  });
}, 60_000);

describe('the lock on the data directory', () => {
  it('refuses a second owner that is alive and takes over from a dead one', () => {
    const dir = tmpDir();
    const sleeper = spawn('sleep', ['30']);
    try {
      writeFileSync(path.join(dir, 'flagpole.lock'), String(sleeper.pid));
      expect(() => acquireDirectoryLock(dir)).toThrow(DirectoryLockedError);
    } finally {
      sleeper.kill();
    }
    writeFileSync(path.join(dir, 'flagpole.lock'), '999999999');
    const release = acquireDirectoryLock(dir);
    expect(readFileSync(path.join(dir, 'flagpole.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(path.join(dir, 'flagpole.lock'))).toBe(false);
  });

  it('keeps a second Flagpole process off the same DATA_DIR; SIGTERM shuts down cleanly', async () => {
    const dataDir = tmpDir();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    const start = () =>
      spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = (child: ChildProcess) => {
      let text = '';
      child.stdout!.on('data', (d) => (text += d));
      child.stderr!.on('data', (d) => (text += d));
      return () => text;
    };
    const exited = (child: ChildProcess) =>
      new Promise<number | null>((resolve) => child.on('exit', resolve));

    const first = start();
    const firstOutput = output(first);
    const firstExit = exited(first);
    const deadline = Date.now() + 40_000;
    while (!firstOutput().includes('Flagpole is ready')) {
      if (Date.now() > deadline) throw new Error(`first process did not start: ${firstOutput()}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const second = start();
    const secondOutput = output(second);
    expect(await exited(second)).toBe(1);
    expect(secondOutput()).toContain('in use by another Flagpole process');

    first.kill('SIGTERM');
    expect(await firstExit).toBe(0);
    expect(existsSync(path.join(dataDir, 'flagpole.lock'))).toBe(false);
  }, 60_000);
});
