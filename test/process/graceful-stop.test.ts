import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { DRAIN_LIMIT_MS } from '../../src/http/drain.js';
import { type FlagpoleProcess, killAll, startFlagpole } from './flagpole-process.js';
import { call, expectStatus } from './http.js';
import { type Answer, HttpConnection } from './http-connection.js';
import { createEmptyDatabase, type EmptyDatabase } from './postgres-database.js';
import { runSeed, seededRandom } from './seeded-random.js';

// SIGTERM while admin writes and SDK metrics are in flight: every request the server had received
// gets its real answer (served, or 503 once it is closing) and never a reset connection; the usage
// counts summed in memory are written, the database is closed, and the process exits 0, promptly
// even with connections kept alive. After a restart every write answered 2xx and every count
// answered 202 is there, and nothing of a request that was not.

const ROUNDS = 3;
const WRITERS = 3;
const REPORTERS = 3;
const FLAG = 'graceful';
const FEATURES = '/api/admin/projects/default/features';
const METRICS = '/api/client/metrics';
/** Far below an orchestrator's grace period (docker stop: 10 s, Kubernetes: 30 s) and the keep-alive timeout (72 s). */
const STOP_LIMIT_MS = 3000;

const postgresUrl = inject('postgresUrl');
const backend = postgresUrl ? 'PostgreSQL' : 'the embedded database';

interface Sent {
  kind: 'feature' | 'metrics';
  /** The feature created, or the application whose count was reported. */
  name: string;
  count: number;
  writtenAt: number;
  answer: Answer | Error;
}

/** Resolves once the server refuses new connections: it has begun closing. */
async function untilRefused(base: string): Promise<void> {
  const { port } = new URL(base);
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    await sleep(5);
  }
}

describe(`SIGTERM under load on ${backend}`, () => {
  let dataDir: string | undefined;
  let database: EmptyDatabase | undefined;
  const adminToken = `*:*.${randomBytes(28).toString('hex')}`;
  const clientToken = `default:development.${randomBytes(28).toString('hex')}`;
  let env: Record<string, string>;

  beforeAll(async () => {
    if (postgresUrl) database = await createEmptyDatabase(postgresUrl, 'graceful');
    else dataDir = mkdtempSync(path.join(os.tmpdir(), 'flagpole-graceful-'));
    env = {
      ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '', DATA_DIR: dataDir! }),
      INIT_ADMIN_API_TOKENS: adminToken,
      INIT_CLIENT_API_TOKENS: clientToken,
    };
  });
  afterEach(killAll);
  afterAll(async () => {
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const report = (appName: string, count: number) => {
    const start = new Date().toISOString();
    return {
      appName,
      instanceId: 'i',
      bucket: { start, stop: start, toggles: { [FLAG]: { yes: count, no: 0 } } },
    };
  };

  /** The flag the reports count, made by whichever test comes first. */
  const makeFlag = async (base: string) => {
    const made = await call(base, 'POST', FEATURES, { token: adminToken, body: { name: FLAG } });
    if (!made.answered || (made.status !== 201 && made.status !== 409)) throw new Error(JSON.stringify(made));
  };

  /** What a restarted server holds of the test's writes: features by name, counts by application. */
  const readBack = async (base: string) => {
    const raw = await expectStatus(
      base,
      'GET',
      `/api/admin/client-metrics/features/${FLAG}/raw?hoursBack=2`,
      200,
      {
        token: adminToken,
      },
    );
    const counted = new Map<string, number>();
    for (const entry of raw.data) counted.set(entry.appName, (counted.get(entry.appName) ?? 0) + entry.yes);
    const list = await expectStatus(base, 'GET', FEATURES, 200, { token: adminToken });
    return { counted, features: new Set<string>(list.features.map((f: { name: string }) => f.name)) };
  };

  it('answers every request it received, writes every reported count, and exits 0 at once', async () => {
    const seed = runSeed(`graceful stop on ${backend}`);
    const random = seededRandom(seed);
    let server: FlagpoleProcess = startFlagpole(env);
    let base = await server.ready;
    await makeFlag(base);
    const stops: number[] = [];
    const seen = { before: 0, served: 0, refused503: 0, after: 0 };

    for (let round = 1; round <= ROUNDS; round++) {
      const sent: Sent[] = [];
      let made = 0;
      const target = base;
      // Each client sends one request after another on a kept-alive connection, opening another
      // when the server closes it, until the server refuses connections.
      const client = async (kind: Sent['kind']) => {
        let connection: HttpConnection | undefined;
        for (;;) {
          if (!connection?.open) {
            try {
              connection = await HttpConnection.open(target);
            } catch {
              return;
            }
          }
          made += 1;
          const name = `r${round}-${kind}-${made}`;
          const count = random.int(1, 1000);
          const exchange =
            kind === 'feature'
              ? connection.request('POST', FEATURES, adminToken, { name })
              : connection.request('POST', METRICS, clientToken, report(name, count));
          const answer = await exchange.answer.catch((error: Error) => error);
          sent.push({ kind, name, count, writtenAt: await exchange.writtenAt, answer });
          if (!(answer instanceof Error) && answer.headers.connection === 'close') await connection.closed;
        }
      };
      const clients = [
        ...Array.from({ length: WRITERS }, () => client('feature')),
        ...Array.from({ length: REPORTERS }, () => client('metrics')),
      ];
      // Requests the server is certainly in the middle of at SIGTERM: their bodies are still
      // coming, on connections that ask to be kept alive.
      const slow = await Promise.all([HttpConnection.open(base), HttpConnection.open(base)]);
      const held = [
        slow[0]!.request('POST', METRICS, clientToken, report(`r${round}-slow-metrics`, 7), true),
        slow[1]!.request('POST', FEATURES, adminToken, { name: `r${round}-slow-feature` }, true),
      ];
      // Answered, on a connection of its own, once the server has read what came before: the held
      // requests' headers. (A busy embedded server can leave a socket unread for a while.)
      const probe = await HttpConnection.open(base);
      expect((await probe.request('GET', '/health').answer).status).toBe(200);
      probe.close();
      // And one sent the moment before SIGTERM on a connection kept alive since: a busy server may
      // not have read it yet when the signal comes.
      const late = await HttpConnection.open(base);
      expect((await late.request('GET', '/health').answer).status).toBe(200);
      await sleep(random.int(200, 800));
      const lastOne = late.request('POST', METRICS, clientToken, report(`r${round}-last`, 5));
      await lastOne.writtenAt;
      const signalledAt = performance.now();
      const exit = server.stop();
      await untilRefused(base);
      for (const h of held) h.finish();
      const answers = await Promise.all(held.map((h) => h.answer));
      expect(answers.map((a) => `${a.status} ${a.body}`)).toEqual(['202 ', expect.stringMatching(/^201 /)]);
      // Shutting down, the server ends each connection after its answer, and says so in it,
      // instead of waiting for the client or its keep-alive timeout.
      expect(answers.map((a) => a.headers.connection)).toEqual(['close', 'close']);
      await Promise.all(slow.map((s) => s.closed));
      const lastAnswer = await lastOne.answer.catch((error: Error) => error);
      expect(lastAnswer instanceof Error ? lastAnswer.message : lastAnswer.status).toBeOneOf([202, 503]);
      expect(await exit, server.output()).toEqual({ code: 0, signal: null });
      stops.push(performance.now() - signalledAt);
      expect(stops.at(-1)).toBeLessThan(STOP_LIMIT_MS);
      await Promise.all(clients);

      server = startFlagpole(env);
      base = await server.ready;
      const { counted, features } = await readBack(base);
      const problems: string[] = [];
      for (const s of sent) {
        const landed = s.kind === 'feature' ? features.has(s.name) : (counted.get(s.name) ?? 0);
        const status = s.answer instanceof Error ? undefined : s.answer.status;
        const ok = status !== undefined && status >= 200 && status < 300;
        if (s.writtenAt < signalledAt) {
          seen.before += 1;
          if (status === undefined)
            problems.push(`${s.name}, sent before SIGTERM, got no answer: ${s.answer}`);
          else if (!ok && status !== 503) problems.push(`${s.name}, sent before SIGTERM, answered ${status}`);
        } else seen.after += 1;
        if (ok) seen.served += 1;
        if (status === 503) seen.refused503 += 1;
        if (ok && s.kind === 'feature' && !landed) problems.push(`feature ${s.name} answered 201 is missing`);
        if (ok && s.kind === 'metrics' && landed !== s.count) {
          problems.push(`usage count of ${s.name} answered 202 with ${s.count}: ${landed} written`);
        }
        if (!ok && landed) problems.push(`${s.name}, answered ${status ?? 'nothing'}, was written`);
      }
      if (counted.get(`r${round}-slow-metrics`) !== 7)
        problems.push('the held-back metrics report was not written');
      if (!features.has(`r${round}-slow-feature`)) problems.push('the held-back feature was not created');
      const lastCounted = counted.get(`r${round}-last`) ?? 0;
      if (lastCounted !== ((lastAnswer as Answer).status === 202 ? 5 : 0)) {
        problems.push(
          `the report sent last, answered ${(lastAnswer as Answer).status}, counted ${lastCounted}`,
        );
      }
      expect(problems, `round ${round} (seed ${seed})`).toEqual([]);
    }
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    console.log(
      `graceful stop on ${backend}: ${ROUNDS} SIGTERMs under load; ${seen.before} requests sent before SIGTERM all answered ` +
        `(${seen.served} served 2xx in all, ${seen.refused503} answered 503 while closing, ${seen.after} sent after SIGTERM); ` +
        `every 2xx write and 202 count there after restart, nothing of the others; exit ${stops.map((ms) => ms.toFixed(0)).join(', ')} ms after SIGTERM`,
    );
  });

  it(`cuts a request unfinished after ${DRAIN_LIMIT_MS} ms, and still writes the counts and exits 0`, async () => {
    let server = startFlagpole(env);
    let base = await server.ready;
    await makeFlag(base);
    const connection = await HttpConnection.open(base);
    const stalled = connection.request('POST', FEATURES, adminToken, { name: 'never-finished' }, true);
    await expectStatus(base, 'POST', METRICS, 202, { token: clientToken, body: report('stalled', 11) });
    const signalledAt = performance.now();
    expect(await server.stop(), server.output()).toEqual({ code: 0, signal: null });
    const took = performance.now() - signalledAt;
    await expect(stalled.answer).rejects.toThrow(/ended without a whole answer/);
    expect(took).toBeGreaterThanOrEqual(DRAIN_LIMIT_MS - 100);
    expect(took).toBeLessThan(DRAIN_LIMIT_MS + STOP_LIMIT_MS);

    server = startFlagpole(env);
    base = await server.ready;
    const { counted, features } = await readBack(base);
    expect(counted.get('stalled')).toBe(11);
    expect(features.has('never-finished')).toBe(false);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    console.log(
      `graceful stop on ${backend}: a stalled request was cut after ${took.toFixed(0)} ms; counts written; exit 0`,
    );
  });
});
