import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucket, currentHour, eventually, postMetrics, rawMetrics } from '../../test/metrics.js';
import { createUser, startTestServer, type TestServer } from '../../test/server.js';
import { silentLogger } from '../log.js';
import { MetricsBuffer } from './buffer.js';

const clientToken = `default:development.${'c'.repeat(56)}`;
const prodToken = `default:production.${'d'.repeat(56)}`;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: `${clientToken},${prodToken}` });
  for (const name of ['counted', 'quiet', 'burst']) {
    await server.request('POST', '/api/admin/projects/default/features', {
      token: server.adminToken,
      body: { name },
    });
  }
});
afterAll(() => server.close());

const post = (body: unknown, token = clientToken) => postMetrics(server, token, body);
const raw = (name: string, query = '') => rawMetrics(server, name, query);

describe('POST /api/client/metrics and E20', () => {
  it('sums the counts per feature, application, environment and hour, visible within seconds', async () => {
    expect(
      (
        await post({
          appName: 'shop',
          instanceId: 'a',
          bucket: bucket({ counted: { yes: 3, no: 1, variants: { blue: 2 } } }),
        })
      ).status,
    ).toBe(202);
    expect(
      (
        await post({
          appName: 'shop',
          instanceId: 'b',
          bucket: bucket({ counted: { yes: 4, no: 2, variants: { blue: 1, red: 3 } } }),
        })
      ).status,
    ).toBe(202);
    expect(
      (await post({ appName: 'admin-ui', bucket: bucket({ counted: { yes: 1, no: 0 } }) }, prodToken)).status,
    ).toBe(202);

    const res = await eventually(
      () => raw('counted'),
      (r) => r.body.data.some((d: any) => d.yes === 7),
    );
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.maturity).toBe('stable');
    const shop = res.body.data.filter((d: any) => d.appName === 'shop');
    expect(shop).toHaveLength(48);
    expect(shop.at(-1)).toEqual({
      featureName: 'counted',
      appName: 'shop',
      environment: 'development',
      timestamp: currentHour(),
      yes: 7,
      no: 3,
      variants: { blue: 3, red: 3 },
    });
    expect(shop[0]).toMatchObject({ yes: 0, no: 0 });
    const times = shop.map((d: any) => Date.parse(d.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const adminUi = res.body.data.filter((d: any) => d.appName === 'admin-ui');
    expect(adminUi).toHaveLength(48);
    expect(adminUi.at(-1)).toMatchObject({ environment: 'production', yes: 1, no: 0 });
  });

  it('marks the counted features seen, in the environments they were counted in', async () => {
    const feature = (name: string) =>
      server.request('GET', `/api/admin/projects/default/features/${name}`, { token: server.adminToken });
    const seen = (body: any, environment: string) =>
      body.environments.find((e: any) => e.name === environment).lastSeenAt;
    const counted = await eventually(
      () => feature('counted'),
      (r) => r.body.lastSeenAt !== null && seen(r.body, 'production') !== null,
    );
    expect(Date.parse(counted.body.lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(seen(counted.body, 'development')).not.toBeNull();
    expect(seen(counted.body, 'production')).not.toBeNull();
    const quiet = (await feature('quiet')).body;
    expect(quiet.lastSeenAt).toBeNull();
    expect(quiet.environments.every((e: any) => e.lastSeenAt === null)).toBe(true);
  });

  it('lists the features an application reported among its seen toggles', async () => {
    const app = (name: string) =>
      server.request('GET', `/api/admin/metrics/applications/${name}`, { token: server.adminToken });
    const shop = await app('shop');
    expect(shop.status).toBe(200);
    expect(shop.body.seenToggles).toEqual(['counted']);
    expect(shop.body.instances.map((i: any) => i.instanceId).sort()).toEqual(['a', 'b']);
    expect(shop.body.links).toEqual({ self: '/api/admin/metrics/applications/shop' });
    expect((await app('admin-ui')).body.seenToggles).toEqual(['counted']);
    expect((await app('nobody')).status).toBe(404);
  });

  it('narrows the window with hoursBack 1..48 and ignores other values', async () => {
    const one = await raw('counted', '?hoursBack=1');
    expect(one.body.data.filter((d: any) => d.appName === 'shop')).toHaveLength(1);
    const twelve = await raw('counted', '?hoursBack=12');
    expect(twelve.body.data.filter((d: any) => d.appName === 'shop')).toHaveLength(12);
    for (const q of ['?hoursBack=0', '?hoursBack=49', '?hoursBack=abc']) {
      const res = await raw('counted', q);
      expect(res.status).toBe(200);
      expect(res.body.data.filter((d: any) => d.appName === 'shop')).toHaveLength(48);
    }
  });

  it('leaves out counts older than the window', async () => {
    const old = new Date(Date.now() - 3 * 3_600_000);
    await post({ appName: 'old-app', bucket: bucket({ quiet: { yes: 5, no: 5 } }, old) });
    const res = await eventually(
      () => raw('quiet', '?hoursBack=4'),
      (r) => r.body.data.length > 0,
    );
    expect(res.body.data).toHaveLength(4);
    expect(res.body.data[0]).toMatchObject({ yes: 5, no: 5 });
    expect((await raw('quiet', '?hoursBack=2')).body.data).toEqual([]);
  });

  it('answers 200 with no data for a feature without metrics, 404 for an unknown one', async () => {
    await server.request('POST', '/api/admin/projects/default/features', {
      token: server.adminToken,
      body: { name: 'unused' },
    });
    expect((await raw('unused')).body).toEqual({ version: 1, maturity: 'stable', data: [] });
    const unknown = await raw('no-such-feature');
    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
  });

  it('is readable by a Viewer, not by a client token, not without credentials', async () => {
    const viewer = await createUser(server, 3);
    expect(
      (await server.request('GET', '/api/admin/client-metrics/features/counted/raw', { token: viewer.pat }))
        .status,
    ).toBe(200);
    expect(
      (await server.request('GET', '/api/admin/client-metrics/features/counted/raw', { token: clientToken }))
        .status,
    ).toBe(403);
    expect((await server.request('GET', '/api/admin/client-metrics/features/counted/raw')).status).toBe(401);
  });

  it('refuses malformed reports with 400 and records nothing', async () => {
    const cases = [
      { bucket: bucket({ quiet: { yes: 1, no: 1 } }) },
      { appName: 'x', bucket: 'yesterday' },
      { appName: 'x', bucket: bucket({ quiet: { yes: -1, no: 0 } }) },
      { appName: 'x', bucket: bucket({ quiet: { yes: 1, no: 0, variants: { a: -2 } } }) },
      { appName: 'x', bucket: bucket({ quiet: { yes: 'many', no: 0 } }) },
      { appName: 'x', bucket: { start: 'now', stop: 'later', toggles: {} } },
    ];
    for (const body of cases) expect((await post(body)).status, JSON.stringify(body)).toBe(400);
    const text = await server.request('POST', '/api/client/metrics', {
      token: clientToken,
      body: 'x',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    expect(
      (await server.request('POST', '/api/client/metrics', { token: 'default:development.nope', body: {} }))
        .status,
    ).toBe(401);
    expect(
      (await server.request('GET', '/api/admin/metrics/applications/x', { token: server.adminToken })).status,
    ).toBe(404);
  });

  it('answers 204 when there is nothing to record', async () => {
    expect((await post({ appName: 'idle', bucket: bucket({}) })).status).toBe(204);
    // Unleash 8 takes a report without a bucket (impact metrics only), or with a null one.
    expect((await post({ appName: 'idle' })).status).toBe(204);
    const impactOnly = { appName: 'idle', bucket: null, impactMetrics: [] };
    expect((await post(impactOnly)).status).toBe(204);
  });

  it('counts a burst of posts exactly', async () => {
    const posts = Array.from({ length: 500 }, () =>
      post({ appName: 'burst-app', bucket: bucket({ burst: { yes: 2, no: 1 } }) }),
    );
    expect((await Promise.all(posts)).every((r) => r.status === 202)).toBe(true);
    const res = await eventually(
      () => raw('burst', '?hoursBack=1'),
      (r) => r.body.data[0]?.yes === 1000,
    );
    expect(res.body.data).toEqual([expect.objectContaining({ appName: 'burst-app', yes: 1000, no: 500 })]);
  });

  it('writes what is still in memory when the server stops', async () => {
    const other = await startTestServer({ INIT_CLIENT_API_TOKENS: clientToken });
    await other.request('POST', '/api/admin/projects/default/features', {
      token: other.adminToken,
      body: { name: 'last' },
    });
    await other.request('POST', '/api/client/metrics', {
      token: clientToken,
      body: { appName: 'shutting-down', bucket: bucket({ last: { yes: 9, no: 1 } }) },
    });
    await other.app.close();
    const { rows } = await other.ctx.db.query<{ yes: number }>(
      `SELECT yes FROM client_metrics_hourly WHERE feature_name = 'last'`,
    );
    expect(rows.map((r) => Number(r.yes))).toEqual([9]);
    await other.database.drop();
  });
});

const quiet = (delayMs: number) => ({ log: silentLogger, delayMs });

describe('MetricsBuffer', () => {
  it('turns a burst of reports into one write', async () => {
    const writes: number[] = [];
    const buffer = new MetricsBuffer(async (batch) => {
      writes.push(batch.counts.reduce((n, c) => n + c.yes, 0));
    }, quiet(50));
    for (let i = 0; i < 10_000; i++) {
      buffer.add({
        appName: 'a',
        instanceId: 'i',
        environment: 'e',
        start: new Date(),
        toggles: { f: { yes: 1, no: 0 } },
      });
    }
    await new Promise((r) => setTimeout(r, 150));
    expect(writes).toEqual([10_000]);
  });

  it('writes a large flush as several short writes of a bounded number of rows', async () => {
    const writes: number[] = [];
    const buffer = new MetricsBuffer(
      async (batch) => {
        writes.push(batch.counts.length + batch.instances.length);
      },
      { ...quiet(10_000), maxRowsPerWrite: 2 },
    );
    const toggles = { f1: { yes: 1, no: 0 }, f2: { yes: 1, no: 0 }, f3: { yes: 1, no: 0 } };
    buffer.add({ appName: 'a', instanceId: 'i', environment: 'e', start: new Date(), toggles });
    buffer.add({ appName: 'a', instanceId: 'j', environment: 'e', start: new Date(), toggles });
    await buffer.close();
    expect(writes).toEqual([2, 2, 1]);
  });

  it('keeps a batch that failed to write and writes it with the next one', async () => {
    const written: number[] = [];
    let fail = true;
    const buffer = new MetricsBuffer(async (batch) => {
      if (fail) {
        fail = false;
        throw new Error('database away');
      }
      written.push(batch.counts.reduce((n, c) => n + c.yes, 0));
    }, quiet(10));
    buffer.add({
      appName: 'a',
      instanceId: 'i',
      environment: 'e',
      start: new Date(),
      toggles: { f: { yes: 2, no: 0 } },
    });
    await buffer.flush();
    buffer.add({
      appName: 'a',
      instanceId: 'i',
      environment: 'e',
      start: new Date(),
      toggles: { f: { yes: 3, no: 0 } },
    });
    await buffer.close();
    expect(written).toEqual([5]);
  });
});

describe('oversized reports', () => {
  it('are refused with 413 and the error body, and record nothing', async () => {
    const server2 = await startTestServer({ INIT_CLIENT_API_TOKENS: clientToken });
    try {
      const toggles = Object.fromEntries(
        Array.from({ length: 9000 }, (_, i) => [
          `feature-with-a-long-name-${i}-${'x'.repeat(80)}`,
          { yes: 1, no: 1 },
        ]),
      );
      const res = await server2.request('POST', '/api/client/metrics', {
        token: clientToken,
        body: { appName: 'huge', bucket: bucket(toggles) },
      });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({
        name: 'PayloadTooLargeError',
        message: expect.stringContaining('bytes'),
      });
      await server2.app.close();
      const { rows } = await server2.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM client_applications',
      );
      expect(rows[0]!.n).toBe(0);
    } finally {
      await server2.database.drop();
    }
  });
});
