import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer } from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { createFeature, createProject, type TestServer, type TestUser } from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;
let client: string;

beforeAll(async () => {
  const fixture = await startAccessServer();
  ({ server, viewer, editor } = fixture);
  client = fixture.credentials.client;
  await createProject(server, 'shop');
  await createFeature(server, 'a');
  await createFeature(server, 'b', 'shop');
  await createFeature(server, 'c', 'shop');
  await server.request('POST', '/api/admin/projects/shop/archive', {
    token: server.adminToken,
    body: { features: ['c'] },
  });
  const strategy = '/api/admin/projects/default/features/a/environments/production/strategies';
  for (const values of [['x'], ['x', 'y', 'z']]) {
    const res = await server.request('POST', strategy, {
      token: server.adminToken,
      body: {
        name: 'default',
        constraints: [
          { contextName: 'userId', operator: 'IN', values },
          { contextName: 'appName', operator: 'IN', values: ['w'] },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
  }
  await server.request('POST', '/api/client/register', {
    token: client,
    body: { appName: 'web', instanceId: 'i' },
  });
});
afterAll(() => server.close());

describe('GET /api/admin/instance-admin/statistics', () => {
  it("answers Unleash's instance statistics from what is stored", async () => {
    const res = await server.request('GET', '/api/admin/instance-admin/statistics', admin(server));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      instanceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      timestamp: expect.any(String),
      versionOSS: expect.stringMatching(/^\d+\.\d+\.\d+/),
      versionEnterprise: '',
      users: 3,
      previousDayMetricsBucketsCount: { enabledCount: 0, variantCount: 0 },
      activeUsers: { last7: 2, last30: 2, last60: 2, last90: 2 },
      licensedUsers: 0,
      productionChanges: { last30: 2, last60: 2, last90: 2 },
      featureToggles: 2,
      projects: 2,
      contextFields: 5,
      roles: 5,
      groups: 0,
      environments: 2,
      segments: 0,
      strategies: 5,
      SAMLenabled: false,
      OIDCenabled: false,
      clientApps: [
        { range: '7d', count: 1 },
        { range: '30d', count: 1 },
        { range: 'allTime', count: 1 },
      ],
      featureExports: 0,
      featureImports: 0,
      apiTokens: { admin: 1, client: 1, frontend: 0 },
      maxEnvironmentStrategies: 2,
      maxConstraints: 2,
      maxConstraintValues: 3,
      releaseTemplates: 0,
      releasePlans: 0,
      edgeInstanceUsage: {},
      readOnlyUsers: 1,
      sum: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // The same installation keeps its id; the checksum follows the counts.
    await createProject(server, 'more');
    const again = (await server.request('GET', '/api/admin/instance-admin/statistics', admin(server))).body;
    expect(again.instanceId).toBe(res.body.instanceId);
    expect(again.projects).toBe(3);
    expect(again.sum).not.toBe(res.body.sum);
    await server.request('POST', '/api/admin/auth/oidc/settings', {
      ...admin(server),
      body: {
        enabled: true,
        clientId: 'c',
        secret: 's',
        discoverUrl: 'https://login.example.com/.well-known/openid-configuration',
      },
    });
    expect(
      (await server.request('GET', '/api/admin/instance-admin/statistics', admin(server))).body.OIDCenabled,
    ).toBe(true);
  });

  it('gives the same as CSV: a line of names and a line of values, as a download', async () => {
    const res = await server.request('GET', '/api/admin/instance-admin/statistics/csv', admin(server));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="flagpole-[0-9a-f-]{36}-\d+\.csv"$/,
    );
    const [names, values, ...rest] = res.text.split('\n');
    expect(rest).toEqual([]);
    expect(names!.startsWith('"instanceId","timestamp","versionOSS"')).toBe(true);
    expect(names).toContain('"apiTokens"');
    expect(values).toContain('"{""admin"":1,""client"":1,""frontend"":0}"');
    expect(values).toMatch(/,false,true,/);
  });

  it('is for Admins only', async () => {
    for (const path of ['/api/admin/instance-admin/statistics', '/api/admin/instance-admin/statistics/csv']) {
      expect((await server.request('GET', path)).status).toBe(401);
      for (const token of [viewer.pat, editor.pat, client]) {
        const res = await server.request('GET', path, { token });
        expect(res.status).toBe(403);
        expect(res.body.name).toBe('NoAccessError');
      }
    }
  });
});
