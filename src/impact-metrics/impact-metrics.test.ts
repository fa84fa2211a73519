import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_CLIENT_TOKEN } from '../../test/feature-ops.js';
import { asAdmin, expectStatus, send } from '../../test/requests.js';
import { createFeature, createUser, lastEvent, startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
const IMPACT = '/api/admin/impact-metrics';
const FRONTEND_TOKEN = `*:production.${'f'.repeat(40)}`;

beforeAll(async () => {
  server = await startTestServer({
    INIT_CLIENT_API_TOKENS: PRODUCTION_CLIENT_TOKEN,
    INIT_FRONTEND_API_TOKENS: FRONTEND_TOKEN,
  });
});
afterAll(() => server.close());

/** Sends impact metrics as an SDK does, with or without usage counts. */
function report(impactMetrics: unknown[], token = PRODUCTION_CLIENT_TOKEN, path = '/api/client/metrics') {
  return send(server, 'POST', path, { appName: 'shop', instanceId: 'i-1', impactMetrics }, token);
}

const counter = (
  name: string,
  value: number,
  labels: Record<string, string | number> = { appName: 'shop' },
) => ({
  name,
  help: `${name} help`,
  type: 'counter',
  samples: [{ labels, value }],
});

/** What the query answers once the buffered reports are written (within a second or two). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 8000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const query = (params: Record<string, string>) =>
  asAdmin(server, 'GET', `${IMPACT}/?${new URLSearchParams(params).toString()}`);

const total = (line: { data: [number, string][] }) => line.data.reduce((n, [, v]) => n + Number(v), 0);

describe('impact metrics from SDKs', () => {
  it('are taken with the usage metrics or alone, summed per minute, and charted by range and aggregation', async () => {
    expect((await report([counter('checkout_errors', 3)])).status).toBe(202);
    expect(
      (await report([counter('checkout_errors', 4), counter('checkout_errors', 5, { appName: 'cart' })]))
        .status,
    ).toBe(202);
    const answer = await until(
      () => query({ metricName: 'checkout_errors', range: 'hour', aggregationMode: 'count' }),
      (res) => res.status === 200 && total(res.body.series[0] ?? { data: [] }) === 12,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ step: '1m', start: expect.any(String), end: expect.any(String) });
    expect(Number(answer.body.end) - Number(answer.body.start)).toBe(3600);
    expect(answer.body.series).toHaveLength(1);
    expect(total(answer.body.series[0])).toBe(12);
    // Edit mode (the default) also tells the labels there are, `origin` added by the server.
    expect(answer.body.labels).toEqual({ appName: ['cart', 'shop'], origin: ['sdk'] });

    const perApp = await query({
      metricName: 'checkout_errors',
      aggregationMode: 'count',
      labels: JSON.stringify({ appName: ['shop', 'cart'] }),
      mode: 'display',
    });
    expect(perApp.body.labels).toBeUndefined();
    expect(perApp.body.series.map((s: any) => [s.metric, total(s)])).toEqual([
      [{ appName: 'cart' }, 5],
      [{ appName: 'shop' }, 7],
    ]);
    const onlyShop = await query({
      metricName: 'checkout_errors',
      labels: JSON.stringify({ appName: ['shop'] }),
    });
    expect(onlyShop.body.series.map((s: any) => [s.metric, total(s)])).toEqual([[{ appName: 'shop' }, 7]]);
    const rps = await query({ metricName: 'checkout_errors', aggregationMode: 'rps' });
    expect(total(rps.body.series[0])).toBeCloseTo(12 / 60, 5);

    const day = await query({ metricName: 'checkout_errors', range: 'day' });
    expect(day.body.step).toBe('15m');
    expect(total(day.body.series[0])).toBe(12);
    const month = await query({ metricName: 'checkout_errors', range: 'month' });
    expect(month.body.step).toBe('1d');
    expect(total(month.body.series[0])).toBe(12);
  });

  it('takes gauges (last value per series) and histograms (quantiles of cumulative buckets)', async () => {
    const gauge = (app: string, value: number) => ({
      name: 'cart_value',
      help: 'Cart value',
      type: 'gauge',
      samples: [{ labels: { appName: app }, value }],
    });
    await report([gauge('shop', 10), gauge('shop', 40), gauge('cart', 20)]);
    const histogram = {
      name: 'checkout_ms',
      help: 'Checkout time',
      type: 'histogram',
      samples: [
        {
          labels: { appName: 'shop' },
          count: 10,
          sum: 2500,
          buckets: [
            { le: 100, count: 2 },
            { le: 500, count: 10 },
            { le: '+Inf', count: 10 },
          ],
        },
      ],
    };
    await report([histogram]);
    const avg = await until(
      () => query({ metricName: 'cart_value', aggregationMode: 'avg' }),
      (res) => res.body.series?.[0]?.data.length === 1,
    );
    expect(avg.body.series[0].data[0][1]).toBe('30'); // (40 + 20) / 2: the last of each series
    const sum = await query({ metricName: 'cart_value', aggregationMode: 'sum' });
    expect(sum.body.series[0].data[0][1]).toBe('60');
    const p50 = await until(
      () => query({ metricName: 'checkout_ms', aggregationMode: 'p50' }),
      (res) => res.body.series?.[0]?.data.length === 1,
    );
    // Rank 5 of 10 falls in (100, 500], where 8 were: 100 + 400 × 3/8.
    expect(p50.body.series[0].data[0][1]).toBe('250');
    const p99 = await query({ metricName: 'checkout_ms', aggregationMode: 'p99' });
    expect(Number(p99.body.series[0].data[0][1])).toBeCloseTo(495, 5);

    const meta = await expectStatus(server, 200, 'GET', `${IMPACT}/metadata`);
    expect(meta.body.metrics).toEqual(
      expect.arrayContaining([
        {
          name: 'cart_value',
          help: 'Cart value',
          displayName: 'Cart value',
          type: 'gauge',
          source: 'internal',
        },
        expect.objectContaining({ name: 'checkout_ms', type: 'histogram' }),
      ]),
    );
    const text = await server.request('GET', '/internal-backstage/impact/metrics');
    expect(text.status).toBe(200);
    expect(text.text).toContain('# TYPE checkout_errors counter');
    expect(text.text).toContain('checkout_errors{appName="shop",metric_type="counter",origin="sdk"} 7');
    expect(text.text).toContain(
      'checkout_ms_bucket{appName="shop",le="100",metric_type="histogram",origin="sdk"} 2',
    );
    expect(text.text).toContain('checkout_ms_count{appName="shop",metric_type="histogram",origin="sdk"} 10');
  });

  it('refuses malformed reports whole, and queries it cannot answer', async () => {
    const bad = await report([{ name: 'x', help: '', type: 'timer', samples: [] }]);
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
    expect((await report([{ ...counter('y', 1), samples: [{ value: 'many' }] }])).status).toBe(400);
    // Names are made Prometheus's: other characters become `_`; one not starting with a letter is dropped.
    await report([counter('page.views', 1, { 'app-name': 'shop' }), counter('9lives', 1)]);
    const views = await until(
      () => query({ metricName: 'page_views' }),
      (res) => res.status === 200,
    );
    expect(views.body.labels).toEqual({ app_name: ['shop'], origin: ['sdk'] });
    expect((await query({ metricName: '9lives' })).status).toBe(404);
    const wrongMode = await query({ metricName: 'page_views', aggregationMode: 'p95' });
    expect(wrongMode.status).toBe(400);
    expect(wrongMode.body.details[0].message).toContain('count, rps');
    expect((await query({ metricName: 'page_views', labels: '{not json' })).status).toBe(400);
    expect((await query({ metricName: 'page_views', labels: '{"a":"b"}' })).status).toBe(400);
    expect((await query({ metricName: 'page_views', range: 'year' })).status).toBe(400);
    // A metric keeps its type: samples of another type are dropped.
    await report([{ ...counter('cart_value', 5), type: 'counter' }]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(
      (await query({ metricName: 'cart_value', aggregationMode: 'avg' })).body.series[0].data[0][1],
    ).toBe('30');
  });

  it('lets a token make only so many series, a public frontend token included', async () => {
    const samples = Array.from({ length: 250 }, (_, i) => ({ labels: { user: `u${i}` }, value: 1 }));
    // A report takes 50 samples of a metric at most.
    const tooMany = await report(
      [{ name: 'clicks', help: 'Clicks', type: 'counter', samples }],
      FRONTEND_TOKEN,
      '/api/frontend/client/metrics',
    );
    expect(tooMany.status).toBe(400);
    for (let i = 0; i < samples.length; i += 50) {
      const res = await report(
        [{ name: 'clicks', help: 'Clicks', type: 'counter', samples: samples.slice(i, i + 50) }],
        FRONTEND_TOKEN,
        '/api/frontend/client/metrics',
      );
      expect(res.status).toBe(200);
    }
    const answer = await until(
      () => query({ metricName: 'clicks' }),
      (r) => r.status === 200 && total(r.body.series[0]) === 200,
    );
    expect(answer.body.labels.user).toHaveLength(200);
    expect(total(answer.body.series[0])).toBe(200);
    // Series it made go on being counted.
    await report(
      [{ name: 'clicks', help: 'Clicks', type: 'counter', samples: samples.slice(0, 5) }],
      FRONTEND_TOKEN,
      '/api/frontend/client/metrics',
    );
    await until(
      () => query({ metricName: 'clicks' }),
      (r) => total(r.body.series[0]) === 205,
    );
    expect(total((await query({ metricName: 'clicks' })).body.series[0])).toBe(205);
  });

  it("come from Edge's bulk metrics with origin Edge", async () => {
    const res = await send(
      server,
      'POST',
      '/api/client/metrics/bulk',
      { applications: [], metrics: [], impactMetrics: [counter('edge_hits', 9)] },
      PRODUCTION_CLIENT_TOKEN,
    );
    expect(res.status, res.text).toBe(202);
    const answer = await until(
      () => query({ metricName: 'edge_hits' }),
      (r) => r.status === 200,
    );
    expect(answer.body.labels.origin).toEqual(['Edge']);
  });
});

describe('impact metric charts', () => {
  const chart = {
    metricName: 'checkout_errors',
    timeRange: 'day',
    aggregationMode: 'rps',
    labelSelectors: { appName: ['shop'] },
  };

  it("of the instance: the Admin's, saved, changed in place and deleted, with events", async () => {
    const saved = await expectStatus(server, 200, 'POST', `${IMPACT}/config`, { ...chart, title: 'Errors' });
    expect(saved.body).toEqual({
      id: expect.any(String),
      ...chart,
      title: 'Errors',
      displayName: 'Errors',
      yAxisMin: 'auto',
      source: 'internal',
      mode: 'write',
      step: '15m',
    });
    expect(await lastEvent(server, 'impact-metric-created')).toMatchObject({ data: { id: saved.body.id } });
    const changed = await expectStatus(server, 200, 'POST', `${IMPACT}/config`, {
      ...chart,
      id: saved.body.id,
      yAxisMin: 'zero',
    });
    expect(changed.body).toMatchObject({
      id: saved.body.id,
      yAxisMin: 'zero',
      displayName: 'Checkout errors',
    });
    expect((await expectStatus(server, 200, 'GET', `${IMPACT}/config`)).body.configs).toEqual([changed.body]);
    expect(
      (await asAdmin(server, 'POST', `${IMPACT}/config`, { ...chart, aggregationMode: 'p99' })).status,
    ).toBe(400);
    expect((await asAdmin(server, 'POST', `${IMPACT}/config`, { ...chart, id: 'nope' })).status).toBe(404);

    const editor = await createUser(server, 'Editor');
    expect((await send(server, 'POST', `${IMPACT}/config`, chart, editor.pat)).status).toBe(403);
    expect((await send(server, 'GET', `${IMPACT}/config`, undefined, editor.pat)).status).toBe(200);

    await expectStatus(server, 204, 'DELETE', `${IMPACT}/config/${saved.body.id}`);
    expect(await lastEvent(server, 'impact-metric-deleted')).toMatchObject({
      preData: { id: saved.body.id },
    });
    expect((await asAdmin(server, 'DELETE', `${IMPACT}/config/${saved.body.id}`)).status).toBe(404);
  });

  it("of a flag: its project's, apart from the instance's", async () => {
    await createFeature(server, 'checkout');
    const base = '/api/admin/projects/default/features/checkout/impact-metrics/config';
    const saved = await expectStatus(server, 200, 'POST', base, chart);
    expect(saved.body.feature).toBe('checkout');
    expect(await lastEvent(server, 'impact-metric-created')).toMatchObject({
      project: 'default',
      featureName: 'checkout',
    });
    expect((await expectStatus(server, 200, 'GET', base)).body.configs).toEqual([saved.body]);
    expect((await expectStatus(server, 200, 'GET', `${IMPACT}/config`)).body.configs).toEqual([]);
    expect((await asAdmin(server, 'DELETE', `${IMPACT}/config/${saved.body.id}`)).status).toBe(404);
    expect(
      (await asAdmin(server, 'GET', '/api/admin/projects/default/features/nope/impact-metrics/config'))
        .status,
    ).toBe(404);
    await expectStatus(server, 204, 'DELETE', `${base}/${saved.body.id}`);
  });

  it('registers a metric before SDKs report it, keeping its type', async () => {
    await expectStatus(server, 204, 'POST', `${IMPACT}/register`, {
      name: 'signups',
      type: 'counter',
      help: 'Sign-ups',
    });
    const meta = await expectStatus(server, 200, 'GET', `${IMPACT}/metadata`);
    expect(meta.body.metrics).toContainEqual(
      expect.objectContaining({ name: 'signups', type: 'counter', help: 'Sign-ups' }),
    );
    expect(
      (await asAdmin(server, 'POST', `${IMPACT}/register`, { name: 'signups', type: 'gauge' })).status,
    ).toBe(400);
    expect(
      (await asAdmin(server, 'POST', `${IMPACT}/register`, { name: 'bad name', type: 'gauge' })).status,
    ).toBe(400);
    const empty = await expectStatus(server, 200, 'GET', `${IMPACT}/?metricName=signups`);
    expect(empty.body.series).toEqual([]);
  });
});
