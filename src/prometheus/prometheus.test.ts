import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFeature,
  createProject,
  isPostgres,
  startTestServer,
  type TestServer,
} from '../../test/server.js';

const CLIENT = `default:development.${'c'.repeat(56)}`;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: CLIENT });
  await createProject(server, 'shop');
  await createFeature(server, 'live');
  await createFeature(server, 'old', 'default');
  await createFeature(server, 'gone', 'shop');
  await server.request('POST', '/api/admin/projects/shop/archive', {
    token: server.adminToken,
    body: { features: ['gone'] },
  });
  await server.request('POST', '/api/admin/projects/default/stale', {
    token: server.adminToken,
    body: { features: ['old'], stale: true },
  });
});
afterAll(() => server.close());

async function scrape() {
  const res = await server.request('GET', '/internal-backstage/prometheus');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
}

/** The value of one series, by its name and labels as written. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /internal-backstage/prometheus', () => {
  it('needs no credentials and answers in the Prometheus text format', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE http_request_duration_milliseconds histogram');
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('counts requests by route pattern and status, and SDK requests apart', async () => {
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await server.request('GET', '/api/admin/projects/default/features/live', {
            token: server.adminToken,
          })
        ).status,
      ).toBe(200);
    }
    expect(
      (await server.request('GET', '/api/admin/projects/default/features/nope', { token: server.adminToken }))
        .status,
    ).toBe(404);
    expect((await server.request('GET', '/api/client/features', { token: CLIENT })).status).toBe(200);
    expect((await server.request('GET', '/api/client/features')).status).toBe(401);
    const text = await scrape();
    const route = 'path="/api/admin/projects/:projectId/features/:featureName",method="GET"';
    expect(value(text, `http_request_duration_milliseconds_count{${route},status="200"}`)).toBe(3);
    expect(value(text, `http_request_duration_milliseconds_count{${route},status="404"}`)).toBe(1);
    expect(value(text, `http_request_duration_milliseconds_bucket{le="+Inf",${route},status="200"}`)).toBe(3);
    expect(
      value(
        text,
        'http_sdk_request_duration_milliseconds_count{path="/api/client/features",method="GET",status="200"}',
      ),
    ).toBe(1);
    expect(
      value(
        text,
        'http_sdk_request_duration_milliseconds_count{path="/api/client/features",method="GET",status="401"}',
      ),
    ).toBe(1);
    expect(text).not.toContain('path="/api/admin/projects/default/features/live"');
    expect(text).not.toMatch(/http_request_duration_milliseconds_count\{path="\/api\/client/);
  });

  it('reports the flags by project and state, the revision, the snapshot age and maintenance mode', async () => {
    const text = await scrape();
    expect(value(text, 'feature_toggles_total')).toBe(2);
    expect(value(text, 'flagpole_features{project="default",state="active"}')).toBe(1);
    expect(value(text, 'flagpole_features{project="default",state="stale"}')).toBe(1);
    expect(value(text, 'flagpole_features{project="shop",state="archived"}')).toBe(1);
    expect(value(text, 'flagpole_config_revision')).toBe(server.ctx.sync.revision);
    expect(value(text, 'flagpole_snapshot_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(value(text, 'flagpole_maintenance_mode')).toBe(0);
    await createFeature(server, 'one-more', 'shop');
    const after = await scrape();
    expect(value(after, 'flagpole_features{project="shop",state="active"}')).toBe(1);
    expect(value(after, 'flagpole_config_revision')).toBeGreaterThan(
      value(text, 'flagpole_config_revision')!,
    );
  });

  it('reports the PostgreSQL pool, where there is one', async () => {
    const text = await scrape();
    if (isPostgres()) {
      expect(value(text, 'db_pool_max')).toBeGreaterThan(0);
      expect(value(text, 'db_pool_used')).toBeGreaterThanOrEqual(0);
      expect(value(text, 'db_pool_free')).toBeGreaterThanOrEqual(0);
      expect(value(text, 'db_pool_pending_acquires')).toBe(0);
    } else {
      expect(text).not.toContain('db_pool_');
    }
  });
});
