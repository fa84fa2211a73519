import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer } from '../../test/access.js';
import { bucket, currentHour, eventually, postMetrics } from '../../test/metrics.js';
import { admin } from '../../test/requests.js';
import { createFeature, createProject, type TestServer } from '../../test/server.js';
import { isOutdatedSdk } from './usage.js';

const FRONTEND = `default:development.${'f'.repeat(56)}`;
let server: TestServer;
let client: string;
let shopClient: string;

const get = (path: string, token = server.adminToken) => server.request('GET', path, { token });

beforeAll(async () => {
  const fixture = await startAccessServer({ INIT_FRONTEND_API_TOKENS: FRONTEND });
  server = fixture.server;
  client = fixture.credentials.client;
  await createProject(server, 'shop');
  const token = await server.request('POST', '/api/admin/api-tokens', {
    ...admin(server),
    body: { tokenName: 'shop', type: 'client', environment: 'production', projects: ['shop'] },
  });
  shopClient = token.body.secret;
  await createFeature(server, 'checkout', 'shop');
  await createFeature(server, 'banner');

  const register = (token: string, body: object, path = '/api/client/register') =>
    server.request('POST', path, {
      token,
      body: { strategies: ['default', 'my-custom', 'gradualRolloutRandom'], ...body },
    });
  expect(
    (await register(client, { appName: 'web', instanceId: 'w1', sdkVersion: 'unleash-client-node:3.9.9' }))
      .status,
  ).toBe(202);
  expect(
    (await register(client, { appName: 'web', instanceId: 'w2', sdkVersion: 'unleash-client-node:6.1.0' }))
      .status,
  ).toBe(202);
  expect(
    (
      await register(shopClient, {
        appName: 'web',
        instanceId: 'w3',
        sdkVersion: 'unleash-client-node:3.9.9',
      })
    ).status,
  ).toBe(202);
  expect(
    (await register(shopClient, { appName: 'api', instanceId: 'a1', sdkVersion: 'unleash-java-sdk:11.0.0' }))
      .status,
  ).toBe(202);
  expect(
    (
      await register(
        FRONTEND,
        { appName: 'web', instanceId: 'browser', sdkVersion: 'unleash-client-js:3.7.0' },
        '/api/frontend/client/register',
      )
    ).status,
  ).toBe(200);

  const counts = { yes: 3, no: 1 };
  expect(
    (
      await postMetrics(server, client, {
        appName: 'web',
        instanceId: 'w1',
        bucket: bucket({ banner: counts, ghost: counts, idle: { yes: 0, no: 0 } }),
      })
    ).status,
  ).toBe(202);
  expect(
    (
      await postMetrics(server, shopClient, {
        appName: 'web',
        instanceId: 'w3',
        bucket: bucket({ checkout: counts, ghost: counts }),
      })
    ).status,
  ).toBe(202);
  expect(
    (
      await postMetrics(server, shopClient, {
        appName: 'api',
        instanceId: 'a1',
        bucket: bucket({ checkout: { yes: 2, no: 5 } }),
      })
    ).status,
  ).toBe(202);
  await eventually(
    () => get('/api/admin/metrics/unknown-flags'),
    (res) => res.body.unknownFlags.length === 1,
  );
  await eventually(
    () => get('/api/admin/client-metrics/features/checkout'),
    (res) => res.body.seenApplications?.length === 2,
  );
});
afterAll(() => server.close());

describe('what SDKs report, seen from applications, projects and flags', () => {
  it('tells outdated SDK versions by the minimums Unleash uses', () => {
    expect(isOutdatedSdk('unleash-client-node:5.3.1')).toBe(true);
    expect(isOutdatedSdk('unleash-client-node:5.3.2')).toBe(false);
    expect(isOutdatedSdk('unleash-java-sdk:11.0.1')).toBe(true);
    expect(isOutdatedSdk('unleash-client-pony:0.0.1')).toBe(false);
    expect(isOutdatedSdk('unleash-client-node:development')).toBe(false);
    expect(isOutdatedSdk(null)).toBe(false);
  });

  it('GET /api/admin/metrics/sdks/outdated and per project', async () => {
    const all = await get('/api/admin/metrics/sdks/outdated');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      sdks: [
        { sdkVersion: 'unleash-client-node:3.9.9', applications: ['web'] },
        { sdkVersion: 'unleash-java-sdk:11.0.0', applications: ['api'] },
      ],
    });
    const shop = await get('/api/admin/projects/shop/sdks/outdated');
    expect(shop.body).toEqual(all.body);
    const fresh = await createProject(server, 'unused').then(() =>
      get('/api/admin/projects/unused/sdks/outdated'),
    );
    expect(fresh.body).toEqual({ sdks: [] });
    expect((await get('/api/admin/projects/nope/sdks/outdated')).status).toBe(404);
  });

  it('GET /api/admin/metrics/unknown-flags: flags reported that do not exist, by application and environment', async () => {
    const res = await get('/api/admin/metrics/unknown-flags');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      unknownFlags: [
        {
          name: 'ghost',
          lastSeenAt: expect.any(String),
          lastEventAt: null,
          reports: [
            {
              appName: 'web',
              environments: [
                { environment: 'development', seenAt: expect.any(String) },
                { environment: 'production', seenAt: expect.any(String) },
              ],
            },
          ],
        },
      ],
    });
    // Made since, it is no longer unknown.
    await createFeature(server, 'ghost');
    expect((await get('/api/admin/metrics/unknown-flags')).body.unknownFlags).toEqual([]);
    expect(
      (await server.request('DELETE', '/api/admin/projects/default/features/ghost', admin(server))).status,
    ).toBe(202);
    expect((await server.request('DELETE', '/api/admin/archive/ghost', admin(server))).status).toBe(200);
    const back = await get('/api/admin/metrics/unknown-flags');
    expect(back.body.unknownFlags[0]).toMatchObject({ name: 'ghost', lastEventAt: expect.any(String) });
  });

  it('GET /api/admin/client-metrics/features/:name: the last hour per environment, the applications of the day', async () => {
    const res = await get('/api/admin/client-metrics/features/checkout');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: 1,
      maturity: 'stable',
      featureName: 'checkout',
      lastHourUsage: [{ environment: 'production', timestamp: currentHour(), yes: 5, no: 6 }],
      seenApplications: ['api', 'web'],
    });
    const none = await get('/api/admin/client-metrics/features/banner');
    expect(none.body.seenApplications).toEqual(['web']);
    expect((await get('/api/admin/client-metrics/features/nope')).status).toBe(404);
  });

  it('GET /api/admin/metrics/applications/:appName/overview', async () => {
    const res = await get('/api/admin/metrics/applications/web/overview');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      projects: ['default', 'shop'],
      featureCount: 2,
      environments: [
        {
          name: 'development',
          instanceCount: 3,
          sdks: ['unleash-client-js:3.7.0', 'unleash-client-node:3.9.9', 'unleash-client-node:6.1.0'],
          frontendSdks: ['unleash-client-js:3.7.0'],
          backendSdks: ['unleash-client-node:3.9.9', 'unleash-client-node:6.1.0'],
          lastSeen: expect.any(String),
          issues: { missingFeatures: ['ghost'], outdatedSdks: ['unleash-client-node:3.9.9'] },
        },
        {
          name: 'production',
          instanceCount: 1,
          sdks: ['unleash-client-node:3.9.9'],
          frontendSdks: [],
          backendSdks: ['unleash-client-node:3.9.9'],
          lastSeen: expect.any(String),
          issues: { missingFeatures: ['ghost'], outdatedSdks: ['unleash-client-node:3.9.9'] },
        },
      ],
      issues: { missingStrategies: ['my-custom'] },
    });
    expect((await get('/api/admin/metrics/applications/nope/overview')).status).toBe(404);
    const tooLong = await get(`/api/admin/metrics/applications/${'a'.repeat(256)}/overview`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.name).toBe('ValidationError');
  });

  it('GET /api/admin/metrics/instances/:appName/environment/:environment', async () => {
    const res = await get('/api/admin/metrics/instances/web/environment/development');
    expect(res.status).toBe(200);
    expect(res.body.instances.map((i: any) => i.instanceId).sort()).toEqual(['browser', 'w1', 'w2']);
    expect(res.body.instances[0]).toEqual({
      instanceId: expect.any(String),
      sdkVersion: expect.any(String),
      clientIp: expect.any(String),
      lastSeen: expect.any(String),
    });
    expect((await get('/api/admin/metrics/instances/web/environment/staging')).body).toEqual({
      instances: [],
    });
    expect((await get('/api/admin/metrics/instances/nope/environment/development')).status).toBe(404);
  });

  it("GET /api/admin/projects/:projectId/applications: who uses the project's flags", async () => {
    const res = await get('/api/admin/projects/shop/applications');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total: 2,
      applications: [
        {
          name: 'api',
          environments: ['production'],
          instances: ['a1'],
          sdks: [{ name: 'unleash-java-sdk', versions: ['11.0.0'] }],
        },
        {
          name: 'web',
          environments: ['production'],
          instances: ['w3'],
          sdks: [{ name: 'unleash-client-node', versions: ['3.9.9'] }],
        },
      ],
    });
    const page = await get('/api/admin/projects/shop/applications?sortOrder=desc&limit=1');
    expect(page.body).toMatchObject({ total: 2, applications: [{ name: 'web' }] });
    const search = await get('/api/admin/projects/shop/applications?query=java');
    expect(search.body).toMatchObject({ total: 1, applications: [{ name: 'api' }] });
    expect((await get('/api/admin/projects/nope/applications')).status).toBe(404);
  });

  it('are reads for any signed-in user; 401 without credentials, 403 for SDK tokens', async () => {
    for (const path of [
      '/api/admin/metrics/sdks/outdated',
      '/api/admin/metrics/unknown-flags',
      '/api/admin/metrics/applications/web/overview',
      '/api/admin/projects/shop/applications',
      '/api/admin/client-metrics/features/checkout',
    ]) {
      expect((await server.request('GET', path)).status, path).toBe(401);
      expect((await get(path, client)).status, path).toBe(403);
    }
  });
});
