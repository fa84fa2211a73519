import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bucket, currentHour, eventually, postMetrics, rawMetrics } from '../../test/metrics.js';
import { createFeature, startTestServer, type TestServer } from '../../test/server.js';
import type { Logger } from '../log.js';
import { MAX_REPORTED_COUNT, MetricsBuffer, type MetricsReport } from './buffer.js';
import { MAX_UNKNOWN_FLAGS } from './usage-store.js';

const clientToken = `default:development.${'c'.repeat(56)}`;
const BIGINT_MAX = '9223372036854775807';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: clientToken });
  for (const name of ['flooded', 'bystander', 'clocked', 'steady']) await createFeature(server, name);
});
afterAll(() => server.close());

const post = (body: unknown) => postMetrics(server, clientToken, body);
const ofApp = (res: { body: { data: { appName: string; yes: number; no: number }[] } }, appName: string) =>
  res.body.data.filter((d) => d.appName === appName);

describe('a client sending counts too large to sum', () => {
  it('has them capped and saturated, and does not stop other applications', async () => {
    // Another process's sums already near the largest bigint: adding to them used to fail the flush.
    await server.ctx.db.query(
      `INSERT INTO client_metrics_hourly (feature_name, app_name, environment, hour, yes, no)
       VALUES ('flooded', 'saturated', 'development', $1, ${BIGINT_MAX}::bigint - 5, 0)`,
      [currentHour()],
    );
    const huge = Number.MAX_SAFE_INTEGER;
    const flood = { flooded: { yes: huge, no: huge, variants: { v: huge } } };
    const posts = [
      ...Array.from({ length: 30 }, () => post({ appName: 'greedy', bucket: bucket(flood) })),
      post({ appName: 'saturated', bucket: bucket(flood) }),
      post({ appName: 'polite', bucket: bucket({ bystander: { yes: 2, no: 1 } }) }),
    ];
    expect((await Promise.all(posts)).map((r) => r.status)).toEqual(posts.map(() => 202));

    const polite = await eventually(
      () => rawMetrics(server, 'bystander', '?hoursBack=1'),
      (r) => r.body.data.length > 0,
    );
    expect(polite.body.data).toEqual([expect.objectContaining({ appName: 'polite', yes: 2, no: 1 })]);

    const flooded = await eventually(
      () => rawMetrics(server, 'flooded', '?hoursBack=1'),
      (r) =>
        ofApp(r, 'greedy')[0]?.yes === 30 * MAX_REPORTED_COUNT &&
        ofApp(r, 'saturated')[0]?.no === MAX_REPORTED_COUNT,
    );
    expect(ofApp(flooded, 'greedy')).toEqual([
      expect.objectContaining({
        yes: 30 * MAX_REPORTED_COUNT,
        no: 30 * MAX_REPORTED_COUNT,
        variants: { v: 30 * MAX_REPORTED_COUNT },
      }),
    ]);
    expect(ofApp(flooded, 'saturated')).toEqual([
      expect.objectContaining({ yes: Number.MAX_SAFE_INTEGER, no: MAX_REPORTED_COUNT }),
    ]);
    const { rows } = await server.ctx.db.query<{ yes: string }>(
      `SELECT yes::text FROM client_metrics_hourly WHERE feature_name = 'flooded' AND app_name = 'saturated'`,
    );
    expect(rows).toEqual([{ yes: BIGINT_MAX }]);
  });
});

describe('a row the database refuses', () => {
  it('is dropped and logged, and the rest of its batch is written', async () => {
    const errors = vi.spyOn(server.ctx.log, 'error');
    try {
      // A clock at zero: a valid JSON date-time, but PostgreSQL has no year 0.
      const posts = await Promise.all([
        post({
          appName: 'broken-clock',
          instanceId: 'pod-0',
          bucket: bucket({ clocked: { yes: 1, no: 0 } }, new Date('0000-01-01T00:30:00Z')),
        }),
        post({ appName: 'punctual', bucket: bucket({ steady: { yes: 4, no: 2 } }) }),
        post({
          appName: 'broken-clock',
          instanceId: 'pod-1',
          bucket: bucket({ clocked: { yes: 3, no: 1 } }),
        }),
      ]);
      expect(posts.map((r) => r.status)).toEqual([202, 202, 202]);

      // The halves of a refused batch are written one after the other: wait for each.
      const steady = await eventually(
        () => rawMetrics(server, 'steady', '?hoursBack=1'),
        (r) => r.body.data.length > 0,
      );
      expect(steady.body.data).toEqual([expect.objectContaining({ appName: 'punctual', yes: 4, no: 2 })]);
      const clocked = await eventually(
        () => rawMetrics(server, 'clocked', '?hoursBack=1'),
        (r) => r.body.data.length > 0,
      );
      expect(clocked.body.data).toEqual([
        expect.objectContaining({ appName: 'broken-clock', yes: 3, no: 1 }),
      ]);
      const instances = await eventually(
        async () => {
          const app = await server.request('GET', '/api/admin/metrics/applications/broken-clock', {
            token: server.adminToken,
          });
          return (app.body.instances ?? []).map((i: { instanceId: string }) => i.instanceId).sort();
        },
        (ids) => ids.length === 2,
      );
      expect(instances).toEqual(['pod-0', 'pod-1']);
      expect(errors).toHaveBeenCalledWith(
        expect.objectContaining({
          appName: 'broken-clock',
          featureName: 'clocked',
          environment: 'development',
          hour: '0000-01-01T00:00:00.000Z',
        }),
        expect.stringContaining('refused'),
      );
    } finally {
      errors.mockRestore();
    }
  });
});

describe('names PostgreSQL cannot store', () => {
  it('are refused with 400 and record nothing', async () => {
    const counts = { yes: 1, no: 0 };
    const cases = [
      { appName: 'nul\u0000app', bucket: bucket({ steady: counts }) },
      { appName: 'nul-instance', instanceId: 'a\u0000b', bucket: bucket({ steady: counts }) },
      { appName: 'nul-toggle', bucket: bucket({ 'st\u0000eady': counts }) },
      { appName: 'nul-variant', bucket: bucket({ steady: { ...counts, variants: { 'bl\u0000ue': 1 } } }) },
      { appName: 'long-toggle', bucket: bucket({ ['x'.repeat(256)]: counts }) },
    ];
    for (const body of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    // A valid report after them: once it is written, anything the refused ones left would be too.
    await post({ appName: 'after-nul', bucket: bucket({ steady: counts }) });
    await eventually(
      () => server.request('GET', '/api/admin/metrics/applications/after-nul', { token: server.adminToken }),
      (r) => r.status === 200,
    );
    const { rows } = await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM client_applications WHERE app_name LIKE 'nul%' OR app_name = 'long-toggle'`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});

function report(featureName: string, yes: number): MetricsReport {
  return {
    appName: 'a',
    instanceId: 'i',
    environment: 'e',
    start: new Date(),
    toggles: { [featureName]: { yes, no: 0 } },
  };
}

function recordingLog() {
  return { error: vi.fn(), info: vi.fn() };
}

describe('MetricsBuffer limits', () => {
  it('caps each reported count, and stops a sum at 2^53 - 1 instead of losing precision', async () => {
    const sums: number[] = [];
    const buffer = new MetricsBuffer(
      async (batch) => {
        sums.push(...batch.counts.map((c) => c.yes));
      },
      { log: recordingLog() as unknown as Logger, delayMs: 10_000 },
    );
    buffer.add(report('once', Number.MAX_SAFE_INTEGER));
    for (let i = 0; i < 10_000; i++) buffer.add(report('often', Number.MAX_SAFE_INTEGER));
    await buffer.close();
    expect(sums).toEqual([MAX_REPORTED_COUNT, Number.MAX_SAFE_INTEGER]);
  });

  it('keeps a bounded number of rows while the database is away, and logs what it drops', async () => {
    const log = recordingLog();
    let away = true;
    const written: string[] = [];
    const buffer = new MetricsBuffer(
      async (batch) => {
        if (away) throw new Error('connect ECONNREFUSED');
        written.push(...batch.counts.map((c) => c.featureName), ...batch.instances.map((i) => i.instanceId));
      },
      { log: log as unknown as Logger, delayMs: 10_000, maxPendingRows: 5 },
    );
    buffer.add(report('f0', 1));
    await buffer.flush();
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ counts: 1, instances: 1 }),
      expect.stringContaining('cannot write'),
    );
    for (let i = 1; i < 10; i++) buffer.add(report(`f${i}`, 1));
    away = false;
    await buffer.close();
    expect(written).toEqual(['f0', 'f1', 'f2', 'f3', 'i']);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ dropped: 6, maxPendingRows: 5 }),
      expect.stringContaining('dropped'),
    );
    expect(log.info).toHaveBeenCalledWith(expect.stringContaining('written again'));
  });
});

describe('unknown flags', () => {
  it('are kept up to a bound: past it only those already known are brought up to date', async () => {
    const unknown = () =>
      server.request('GET', '/api/admin/metrics/unknown-flags', { token: server.adminToken });
    expect(
      (await post({ appName: 'typo', bucket: bucket({ 'known-typo': { yes: 1, no: 0 } }) })).status,
    ).toBe(202);
    await eventually(unknown, (r) => r.body.unknownFlags.length === 1);
    const first = (await unknown()).body.unknownFlags[0].lastSeenAt;
    await server.ctx.db.query(
      `INSERT INTO unknown_flags (name, app_name, environment)
       SELECT 'filler-' || n, 'typo', 'development' FROM generate_series(2, $1) AS n`,
      [MAX_UNKNOWN_FLAGS],
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(
      (
        await post({
          appName: 'typo',
          bucket: bucket({ 'known-typo': { yes: 1, no: 0 }, 'one-too-many': { yes: 1, no: 0 } }),
        })
      ).status,
    ).toBe(202);
    const updated = await eventually(
      unknown,
      (r) => r.body.unknownFlags.find((f: { name: string }) => f.name === 'known-typo')?.lastSeenAt !== first,
    );
    expect(updated.body.unknownFlags).toHaveLength(1000);
    const { rows } = await server.ctx.db.query<{ n: number; extra: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE name = 'one-too-many')::int AS extra FROM unknown_flags`,
    );
    expect(rows[0]).toEqual({ n: MAX_UNKNOWN_FLAGS, extra: 0 });
  });
});
