import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type FlagpoleProcess, killAll, startFlagpole } from './flagpole-process.js';
import { expectStatus } from './http.js';
import { createEmptyDatabase, type EmptyDatabase } from './postgres-database.js';

// Memory under abuse: every public SDK path flooded for 30 s with names never seen and the largest
// bodies allowed, from many addresses. The server's memory stays within a fixed bound over idle
// (PGlite's never shrinks: what it is made to hold stays) and /health answers promptly throughout.

const FLOOD_SECONDS = 30;
const CONCURRENCY = 24;
const RSS_BOUND_MIB = 256;
const HEALTH_BOUND_MS = 100;
const LOAD = fileURLToPath(new URL('./sdk-flood-load.mjs', import.meta.url));

const postgresUrl = inject('postgresUrl');
const backend = postgresUrl ? 'PostgreSQL' : 'the embedded database';

/** The resident memory of a process, in MiB, as the kernel counts it. */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)![1]);
  return kib / 1024;
}

/** One GET /health on a kept-alive connection: how long it took, in ms. */
function timeHealth(base: string, agent: http.Agent): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}/health`, { agent }, (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(new Error(`/health answered ${response.statusCode}`)),
      );
    });
    request.on('error', reject);
  });
}

/** Runs the load in its own process; resolves with what it counted. */
function flood(config: object): Promise<{ requests: number; counts: Record<string, number> }> {
  const child = spawn(process.execPath, [LOAD, JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // At the lowest priority: the load stands for clients on other machines, and on the test's two
  // cores it should not take the turns of the server it measures.
  os.setPriority(child.pid!, 19);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the load exited ${code}:\n${err}`)),
    ),
  );
}

describe(`a flood of the public SDK paths on ${backend}`, () => {
  let dataDir: string | undefined;
  let database: EmptyDatabase | undefined;
  let server: FlagpoleProcess;
  const adminToken = `*:*.${randomBytes(28).toString('hex')}`;
  const clientToken = `*:development.${randomBytes(28).toString('hex')}`;
  const frontendToken = `default:development.${randomBytes(28).toString('hex')}`;

  beforeAll(async () => {
    if (postgresUrl) database = await createEmptyDatabase(postgresUrl, 'flood');
    else dataDir = mkdtempSync(path.join(os.tmpdir(), 'flagpole-flood-'));
  });
  afterAll(async () => {
    await killAll();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`keeps memory within idle + ${RSS_BOUND_MIB} MiB and answers /health within ${HEALTH_BOUND_MS} ms`, async () => {
    server = startFlagpole({
      ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '', DATA_DIR: dataDir! }),
      INIT_ADMIN_API_TOKENS: adminToken,
      INIT_CLIENT_API_TOKENS: clientToken,
      INIT_FRONTEND_API_TOKENS: frontendToken,
    });
    const base = await server.ready;
    for (let i = 0; i < 20; i++) {
      const name = `flood-${i}`;
      await expectStatus(base, 'POST', '/api/admin/projects/default/features', 201, {
        token: adminToken,
        body: { name },
      });
      await expectStatus(
        base,
        'POST',
        `/api/admin/projects/default/features/${name}/environments/development/on`,
        200,
        { token: adminToken, body: {} },
      );
    }
    // Idle: started, configured, every path served a little (so the flood meets warm code, not
    // first compilations), then left alone a moment.
    await flood({ base, clientToken, frontendToken, seconds: 2, concurrency: 2 });
    await sleep(2000);
    const idle = Math.max(
      ...(await Promise.all([0, 200, 400].map((ms) => sleep(ms).then(() => rssMiB(server.pid))))),
    );

    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const rss: number[] = [];
    const health: number[] = [];
    let flooding = true;
    const sampling = (async () => {
      while (flooding) {
        rss.push(rssMiB(server.pid));
        health.push(await timeHealth(base, agent));
        await sleep(100);
      }
    })();
    const load = await flood({
      base,
      clientToken,
      frontendToken,
      seconds: FLOOD_SECONDS,
      concurrency: CONCURRENCY,
    });
    // What the flood left to write (metrics buffered, registrations queued) counts too.
    const settleUntil = Date.now() + 3000;
    while (Date.now() < settleUntil) await sleep(100);
    flooding = false;
    await sampling;
    agent.destroy();

    const peak = Math.max(...rss);
    const worst = Math.max(...health);
    const sorted = [...health].sort((a, b) => a - b);
    const p99 = sorted[Math.floor(sorted.length * 0.99)]!;
    console.log(
      `sdk flood on ${backend}: ${load.requests} requests in ${FLOOD_SECONDS} s; RSS idle ${idle.toFixed(0)} MiB, ` +
        `peak ${peak.toFixed(0)} MiB (+${(peak - idle).toFixed(0)}); /health ${health.length} probes, ` +
        `p99 ${p99.toFixed(1)} ms, worst ${worst.toFixed(1)} ms (probe ${health.indexOf(worst) + 1}), ` +
        `over ${HEALTH_BOUND_MS} ms: ${
          health
            .filter((ms) => ms > HEALTH_BOUND_MS)
            .map((ms) => ms.toFixed(0))
            .join(', ') || 'none'
        }\n${JSON.stringify(load.counts, null, 1)}`,
    );

    // The flood was one: every path answered, some of it accepted and some of it refused.
    const answered = (prefix: string, status: number) =>
      Object.entries(load.counts)
        .filter(([key]) => key.startsWith(prefix) && key.endsWith(` ${status}`))
        .reduce((n, [, count]) => n + count, 0);
    expect(answered('POST /api/client/register', 202)).toBeGreaterThan(0);
    expect(answered('POST /api/client/register', 400)).toBeGreaterThan(0);
    expect(answered('POST /api/frontend/client/register', 200)).toBeGreaterThan(0);
    expect(answered('POST /api/frontend/client/metrics', 200)).toBeGreaterThan(0);
    expect(
      answered('POST /api/client/metrics', 429) + answered('POST /api/frontend/client/register', 429),
    ).toBeGreaterThan(0);
    expect(answered('GET /api/client/features', 200)).toBeGreaterThan(0);
    expect(answered('POST /api/frontend', 200)).toBeGreaterThan(0);

    expect(peak - idle).toBeLessThanOrEqual(RSS_BOUND_MIB);
    expect(worst).toBeLessThanOrEqual(HEALTH_BOUND_MS);

    // Still answering, and the list of applications comes a page at a time.
    const list = await expectStatus(base, 'GET', '/api/admin/metrics/applications?limit=10', 200, {
      token: adminToken,
    });
    expect(list.applications.length).toBeLessThanOrEqual(10);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });
});
