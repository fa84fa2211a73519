import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureEnvironment } from '../../test/feature-ops.js';
import { asAdmin, expectStatus } from '../../test/requests.js';
import { createFeature, lastEvent, startTestServer, type TestServer } from '../../test/server.js';

// An external source: a Prometheus HTTP API on this machine (allowed by INTEGRATION_ALLOWED_HOSTS),
// behind Basic-Auth, answering what a Prometheus holding `http_requests_total` would.
let server: TestServer;
let prometheus: Server;
let base: string;
const asked: { path: string; params: URLSearchParams; auth: string | undefined }[] = [];
let instantValue = '0.2';

const AUTH = `Basic ${Buffer.from('reader:s3cret').toString('base64')}`;
const SOURCE = '/api/admin/impact-metrics/external-source';

function answer(path: string, params: URLSearchParams): unknown {
  switch (path) {
    case '/prom/api/v1/label/__name__/values':
      return ['http_requests_total', 'memory_bytes'];
    case '/prom/api/v1/metadata':
      return {
        http_requests_total: [{ type: 'counter', help: 'Requests' }],
        memory_bytes: [{ type: 'gauge', help: 'Memory' }],
      };
    case '/prom/api/v1/query_range': {
      const start = Number(params.get('start'));
      return {
        resultType: 'matrix',
        result: [
          { metric: { route: 'a' }, values: [[start, '1.5']] },
          { metric: { route: 'b' }, values: [[start, '2']] },
        ],
      };
    }
    case '/prom/api/v1/series':
      return [
        { __name__: 'http_requests_total', route: 'a', job: 'shop' },
        { __name__: 'http_requests_total', route: 'b', job: 'shop' },
      ];
    case '/prom/api/v1/query':
      return { resultType: 'vector', result: [{ metric: {}, value: [Date.now() / 1000, instantValue] }] };
    default:
      return undefined;
  }
}

beforeAll(async () => {
  prometheus = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    asked.push({ path: url.pathname, params: url.searchParams, auth: req.headers.authorization });
    const data = req.headers.authorization === AUTH ? answer(url.pathname, url.searchParams) : undefined;
    res.writeHead(data === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        data === undefined ? { status: 'error', error: 'not found' } : { status: 'success', data },
      ),
    );
  });
  await new Promise<void>((resolve) => prometheus.listen(0, '127.0.0.1', resolve));
  base = `127.0.0.1:${(prometheus.address() as AddressInfo).port}/prom`;
  server = await startTestServer({
    INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
    SAFEGUARD_CHECK_INTERVAL_MS: '200',
  });
});
afterAll(async () => {
  await server.close();
  await new Promise((r) => prometheus.close(r));
});

describe('an external source of impact metrics', () => {
  it('is tried, saved with its password hidden, and then charted from', async () => {
    expect((await expectStatus(server, 200, 'GET', SOURCE)).body).toEqual({ enabled: false, url: null });
    const tried = await expectStatus(server, 200, 'POST', `${SOURCE}/validate`, {
      url: `http://reader:s3cret@${base}`,
    });
    expect(tried.body).toEqual({ metrics: ['http_requests_total', 'memory_bytes'] });
    const wrong = await expectStatus(server, 200, 'POST', `${SOURCE}/validate`, { url: `http://${base}` });
    expect(wrong.body).toEqual({ metrics: [], error: expect.stringContaining('404') });
    const outside = await expectStatus(server, 200, 'POST', `${SOURCE}/validate`, {
      url: 'http://10.1.2.3/prom',
    });
    expect(outside.body.error).toContain('INTEGRATION_ALLOWED_HOSTS');
    expect((await asAdmin(server, 'POST', `${SOURCE}/validate`, { url: 'ftp://x' })).status).toBe(400);
    expect((await asAdmin(server, 'POST', SOURCE, { enabled: true })).status).toBe(400);

    const saved = await expectStatus(server, 200, 'POST', SOURCE, {
      enabled: true,
      url: `http://reader:s3cret@${base}`,
    });
    expect(saved.body).toEqual({ enabled: true, url: `http://reader:*****@${base}` });
    expect((await expectStatus(server, 200, 'GET', '/api/admin/ui-config')).body.impactMetrics).toBe('full');
    const event = await lastEvent(server, 'setting-created');
    expect(event.data.url).toBe(`http://reader:*****@${base}`);
    expect(JSON.stringify(event)).not.toContain('s3cret');
    // Sent back as shown, the password saved is kept.
    await expectStatus(server, 200, 'POST', SOURCE, saved.body);
    expect(
      (await asAdmin(server, 'POST', SOURCE, { enabled: true, url: `http://other:*****@${base}` })).status,
    ).toBe(400);

    const meta = await expectStatus(server, 200, 'GET', '/api/admin/impact-metrics/metadata');
    expect(meta.body.metrics).toContainEqual({
      name: 'http_requests_total',
      help: 'Requests',
      displayName: 'Http requests total',
      type: 'counter',
      source: 'external',
    });
    const labels = JSON.stringify({ route: ['a', 'b'], job: ['shop'] });
    const chart = await expectStatus(
      server,
      200,
      'GET',
      `/api/admin/impact-metrics/?metricName=http_requests_total&source=external&aggregationMode=rps&labels=${encodeURIComponent(labels)}`,
    );
    expect(chart.body.series).toEqual([
      { metric: { route: 'a' }, data: [[Number(chart.body.start), '1.5']] },
      { metric: { route: 'b' }, data: [[Number(chart.body.start), '2']] },
    ]);
    expect(chart.body.labels).toEqual({ job: ['shop'], route: ['a', 'b'] });
    const range = asked.find((a) => a.path.endsWith('query_range'))!;
    expect(range.auth).toBe(AUTH);
    expect(range.params.get('query')).toBe(
      'sum by (route) (rate(http_requests_total{route=~"a|b",job="shop"}[1m]))',
    );
    expect(range.params.get('step')).toBe('60');
  });

  it('is what a safeguard with source "external" asks', async () => {
    await createFeature(server, 'checkout');
    await expectStatus(
      server,
      200,
      'POST',
      '/api/admin/projects/default/features/checkout/environments/production/on',
    );
    await expectStatus(
      server,
      204,
      'PUT',
      '/api/admin/projects/default/features/checkout/environments/production/safeguards',
      {
        impactMetric: {
          metricName: 'http_requests_total',
          timeRange: 'hour',
          aggregationMode: 'rps',
          labelSelectors: { route: ['a'] },
          source: 'external',
        },
        triggerCondition: { operator: '>', threshold: 0.5 },
      },
    );
    await new Promise((r) => setTimeout(r, 800));
    expect((await featureEnvironment(server, 'checkout', 'production')).enabled).toBe(true);
    instantValue = '0.9';
    const deadline = Date.now() + 8000;
    while ((await featureEnvironment(server, 'checkout', 'production')).enabled && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await featureEnvironment(server, 'checkout', 'production')).enabled).toBe(false);
    const instant = asked.filter((a) => a.path.endsWith('/query')).at(-1)!;
    expect(instant.params.get('query')).toMatch(/^sum \(rate\(http_requests_total\{route="a"\}\[\d+s\]\)\)$/);
  });
});
