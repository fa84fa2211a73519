import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres, startTestServer, type TestServer } from './server.js';

// Two Flagpole processes on one PostgreSQL: a change made through one is served by the other
// within a second (NOTIFY, with polling behind it).
const clientToken = `default:development.${'e'.repeat(56)}`;

describe.runIf(isPostgres())('two Flagpole processes on one database', () => {
  let server: TestServer;
  let other: ChildProcess;
  let otherUrl: string;

  beforeAll(async () => {
    server = await startTestServer({ INIT_CLIENT_API_TOKENS: clientToken });
    other = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: server.database.url,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    otherUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      other.stdout!.on('data', (d) => {
        output += d;
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (m && output.includes('Flagpole is ready')) resolve(m[1]!);
      });
      other.stderr!.on('data', (d) => (output += d));
      other.on('exit', (code) => reject(new Error(`second process exited (${code}): ${output}`)));
    });
  }, 60_000);

  afterAll(async () => {
    if (other && other.exitCode === null) {
      const exited = new Promise((r) => other.on('exit', r));
      other.kill('SIGTERM');
      await exited;
    }
    await server?.close();
  });

  async function servedByOther(): Promise<string[]> {
    const res = await fetch(`${otherUrl}/api/client/features`, { headers: { authorization: clientToken } });
    const body = (await res.json()) as { features: { name: string }[] };
    return body.features.map((f) => f.name);
  }

  it('serves a feature created through the other process within a second', async () => {
    expect(await servedByOther()).not.toContain('made-elsewhere');
    const created = await server.request('POST', '/api/admin/projects/default/features', {
      token: server.adminToken,
      body: { name: 'made-elsewhere' },
    });
    expect(created.status).toBe(201);
    const started = Date.now();
    let names = await servedByOther();
    while (!names.includes('made-elsewhere') && Date.now() - started < 3000) {
      await new Promise((r) => setTimeout(r, 25));
      names = await servedByOther();
    }
    expect(names).toContain('made-elsewhere');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('accepts a token created through the other process at once', async () => {
    const made = await server.request('POST', '/api/admin/api-tokens', {
      token: server.adminToken,
      body: { tokenName: 'fresh', type: 'client', environment: 'development' },
    });
    const started = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - started < 3000) {
      status = (
        await fetch(`${otherUrl}/api/client/features`, { headers: { authorization: made.body.secret } })
      ).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe(200);
  });
});
