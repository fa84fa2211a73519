import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucket, eventually, postMetrics, rawMetrics } from '../../test/metrics.js';
import { createFeature, startTestServer, type TestServer } from '../../test/server.js';
import { bumpMetricsRevision } from '../sync/store.js';

const clientToken = `default:development.${'c'.repeat(56)}`;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: clientToken });
  await createFeature(server, 'cached');
});
afterAll(() => server.close());

const yes = async () => (await rawMetrics(server, 'cached', '?hoursBack=1')).body.data[0]?.yes;
const post = (n: number) =>
  postMetrics(server, clientToken, { appName: 'cache-app', bucket: bucket({ cached: { yes: n, no: 0 } }) });
/** Resolves the next time this process learns that usage counts were written. */
const nextFlush = () => new Promise<void>((resolve) => server.ctx.sync.onMetricsChange(resolve));

// Changed behind the server's back: no revision moves, so only a read of the database shows it.
const setBehindTheBack = (n: number) =>
  server.ctx.db.query(`UPDATE client_metrics_hourly SET yes = $1 WHERE feature_name = 'cached'`, [n]);

describe('E20 cache', () => {
  it('answers from memory until counts are written, then at once from the database', async () => {
    await post(1);
    expect(await eventually(yes, (n) => n === 1)).toBe(1);

    await setBehindTheBack(100);
    expect(await yes()).toBe(1);
    expect((await rawMetrics(server, 'cached')).body.data.at(-1).yes).toBe(100);

    const flushed = nextFlush();
    await post(2);
    await flushed;
    expect(await yes()).toBe(102);
  });

  it('follows counts written by another process', async () => {
    expect(await yes()).toBe(102);
    await setBehindTheBack(500);
    expect(await yes()).toBe(102);
    await server.ctx.db.transaction((tx) => bumpMetricsRevision(tx));
    expect(await eventually(yes, (n) => n === 500)).toBe(500);
  });

  it('still answers 404 for a feature that does not exist, cached or not', async () => {
    expect((await rawMetrics(server, 'never-made')).status).toBe(404);
    const archive = await server.request('POST', '/api/admin/projects/default/archive', {
      token: server.adminToken,
      body: { features: ['cached'] },
    });
    expect(archive.status).toBeLessThan(300);
    expect((await rawMetrics(server, 'cached')).status).toBe(200);
    const deleted = await server.request('POST', '/api/admin/projects/default/delete', {
      token: server.adminToken,
      body: { features: ['cached'] },
    });
    expect(deleted.status).toBeLessThan(300);
    expect((await rawMetrics(server, 'cached')).status).toBe(404);
  });
});
