import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { extractTarGz } from '../src/db/tar.js';
import { createTestDatabase, type TestDatabase } from './database.js';

// The server as `npm run dev` starts it, on a database of its own: a fresh PostgreSQL test
// database, or an embedded one unpacked from the migrated template.
let database: TestDatabase | undefined;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'flagpole-start-up-'));
  if (inject('postgresUrl')) {
    database = await createTestDatabase({
      postgresUrl: inject('postgresUrl'),
      postgresTemplate: inject('postgresTemplate'),
    });
    await database.db.close();
  } else {
    extractTarGz(readFileSync(inject('embeddedTemplate')), path.join(dataDir, 'pgdata'));
  }
});
afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  process: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

function start(port: number): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, output: () => output, exited };
}

async function ready(started: Started): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(started.output());
    if (match && started.output().includes('Flagpole is ready')) return match[1]!;
    if (started.process.exitCode !== null) throw new Error(`the server exited: ${started.output()}`);
    if (Date.now() > deadline) throw new Error(`the server did not start: ${started.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stop(started: Started): Promise<void> {
  started.process.kill('SIGTERM');
  await started.exited;
}

const warnings = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((entry) => entry.level === 40 && /default password/.test(entry.msg));

describe('starting on a port that is taken', () => {
  let holder: Server;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it('prints one clear line and exits with 1', async () => {
    const port = (holder.address() as { port: number }).port;
    const started = start(port);
    expect(await started.exited).toBe(1);
    const output = started.output();
    expect(output).toContain(`Port ${port} is already in use: stop what holds it or set PORT.`);
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('EADDRINUSE');
  }, 60_000);
});

describe('the default admin account', () => {
  it('is warned about at every start while it has the default password, and not once changed', async () => {
    const first = start(0);
    await ready(first);
    expect(warnings(first.output())).toEqual([
      expect.objectContaining({
        msg: 'The user "admin" still has the default password "unleash4all": anyone who tries it is an administrator. Sign in and change it.',
      }),
    ]);
    await stop(first);

    const second = start(0);
    const again = await ready(second);
    expect(warnings(second.output())).toHaveLength(1);
    const login = await fetch(`${again}/auth/simple/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'unleash4all' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const changed = await fetch(`${again}/api/admin/user/change-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        password: 'Not-The-Default-1',
        confirmPassword: 'Not-The-Default-1',
        oldPassword: 'unleash4all',
      }),
    });
    expect(changed.status).toBe(200);
    await stop(second);

    const third = start(0);
    await ready(third);
    expect(warnings(third.output())).toEqual([]);
    await stop(third);
  }, 90_000);
});
