import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, expectStatus } from '../../test/feature-ops.js';
import { CLIENT_TOKEN, createFeature, createProject, grantRole, startEnv } from '../../test/features.js';
import { bucket, eventually, postMetrics } from '../../test/metrics.js';
import {
  createUser,
  startTestServer,
  type TestServer,
  type TestUser,
  writeDirectly,
} from '../../test/server.js';

let server: TestServer;
let editor: TestUser;
let member: TestUser;
let viewer: TestUser;
let strategy: Record<string, unknown>;
beforeAll(async () => {
  server = await startTestServer(startEnv());
  [editor, member, viewer] = [
    await createUser(server, 2),
    await createUser(server, 3),
    await createUser(server, 3),
  ];
  await createProject(server, 'ins');
  await createProject(server, 'empty');
  await grantRole(server, member.id, 'ins');
  const fresh = await server.request('POST', '/api/admin/projects/ins/features', {
    token: editor.pat,
    body: { name: 'ins-fresh' },
  });
  expect(fresh.status).toBe(201);
  await createFeature(server, 'ins-stale', 'ins');
  await createFeature(server, 'ins-old', 'ins');
  await createFeature(server, 'ins-ops', 'ins', { type: 'operational' });
  await createFeature(server, 'ins-archived', 'ins');
  await expectStatus(server, 201, 'POST', '/api/admin/features/ins-old/tags', { value: 'legacy' });
  await expectStatus(server, 202, 'POST', '/api/admin/projects/ins/stale', {
    features: ['ins-stale'],
    stale: true,
  });
  await expectStatus(server, 202, 'POST', '/api/admin/projects/ins/archive', { features: ['ins-archived'] });
  strategy = (
    await expectStatus(
      server,
      200,
      'POST',
      '/api/admin/projects/ins/environments/development/default-strategy',
      {
        name: 'default',
      },
    )
  ).body;
  await expectStatus(server, 201, 'POST', '/api/admin/api-tokens', {
    tokenName: 'ins-app',
    type: 'client',
    environment: 'development',
    projects: ['ins'],
  });
  await expectStatus(server, 201, 'POST', '/api/admin/segments', {
    name: 'ins-seg',
    project: 'ins',
    constraints: [],
  });
  // Past the release type's 40 days: potentially stale. Created 6 days ago (the operational type lives 7), live 3 days later.
  await writeDirectly(
    server,
    `UPDATE features SET created_at = now() - interval '50 days' WHERE name = 'ins-old'`,
  );
  await writeDirectly(
    server,
    `UPDATE features SET created_at = now() - interval '6 days' WHERE name = 'ins-ops'`,
  );
  await writeDirectly(
    server,
    `UPDATE feature_lifecycles l SET created_at = f.created_at FROM features f
      WHERE f.name = l.feature_name AND f.name = 'ins-ops'`,
  );
  await writeDirectly(
    server,
    `INSERT INTO feature_lifecycles (feature_name, stage, created_at)
     SELECT name, 'live', created_at + interval '3 days' FROM features WHERE name = 'ins-ops'`,
  );
  await postMetrics(server, CLIENT_TOKEN, {
    appName: 'a',
    instanceId: 'i',
    bucket: bucket({ 'ins-fresh': { yes: 1, no: 0 } }),
  });
  await eventually(
    async () => (await asAdmin(server, 'GET', '/api/admin/projects/ins/features/ins-fresh/lifecycle')).body,
    (stages) => stages.length === 2,
  );
  expect(
    (await server.request('POST', '/api/admin/projects/ins/favorites', { token: viewer.pat })).status,
  ).toBe(200);
});
afterAll(() => server.close());

const read = (path: string, token = server.adminToken) =>
  server.request('GET', `/api/admin/projects/${path}`, { token });
const dashboardOf = (user: TestUser) =>
  server.request('GET', '/api/admin/personal-dashboard', { token: user.pat });
const eventCount = async () =>
  (await asAdmin(server, 'GET', '/api/admin/events?project=ins')).body.totalEvents;

describe('the project reads', () => {
  it('overview: settings, health from stale and potentially stale features, environments, 30-day statistics', async () => {
    const res = await read('ins/overview', viewer.pat);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: 1,
      name: 'ins',
      description: null,
      mode: 'open',
      defaultStickiness: 'default',
      featureLimit: null,
      featureNaming: { pattern: null, example: null, description: null },
      linkTemplates: [],
      members: 1,
      health: 50,
      technicalDebt: 50,
      environments: [
        { environment: 'development', defaultStrategy: strategy },
        { environment: 'production' },
      ],
      featureTypeCounts: [
        { type: 'operational', count: 1 },
        { type: 'release', count: 3 },
      ],
      favorite: true,
      createdAt: expect.any(String),
      updatedAt: null,
      onboardingStatus: { status: 'onboarded' },
      stats: {
        avgTimeToProdCurrentWindow: 3,
        createdCurrentWindow: 4,
        createdPastWindow: 1,
        archivedCurrentWindow: 1,
        archivedPastWindow: 0,
        projectActivityCurrentWindow: await eventCount(),
        projectActivityPastWindow: 0,
        projectMembersAddedCurrentWindow: 1,
      },
    });
    expect((await read('ins/overview')).body.favorite).toBe(false);
    const list = (await asAdmin(server, 'GET', '/api/admin/projects')).body.projects;
    expect(list.find((p: { id: string }) => p.id === 'ins')).toMatchObject({ health: 50, featureCount: 4 });
    expect(list.find((p: { id: string }) => p.id === 'empty')).toMatchObject({
      health: 100,
      featureCount: 0,
    });
    const empty = (await read('empty/overview')).body;
    expect(empty).toMatchObject({
      health: 100,
      onboardingStatus: { status: 'onboarding-started' },
      featureTypeCounts: [],
    });
  });

  it('health report: the live features with their tags, and the counts', async () => {
    const res = await read('ins/health-report');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1, name: 'ins', health: 50, technicalDebt: 50, members: 1 });
    expect(res.body).toMatchObject({ activeCount: 3, potentiallyStaleCount: 1, staleCount: 1 });
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual([
      'ins-fresh',
      'ins-old',
      'ins-ops',
      'ins-stale',
    ]);
    const old = res.body.features.find((f: { name: string }) => f.name === 'ins-old');
    expect(old).toMatchObject({ type: 'release', stale: false, tags: [{ type: 'simple', value: 'legacy' }] });
    expect(old.environments).toHaveLength(2);
  });

  it('insights and dora: health, lead time from the lifecycle, members', async () => {
    const res = await read('ins/insights');
    expect(res.status).toBe(200);
    const health = { rating: 50, activeCount: 3, potentiallyStaleCount: 1, staleCount: 1 };
    expect(res.body).toMatchObject({
      health,
      technicalDebt: { ...health, rating: 50 },
      leadTime: { features: [{ name: 'ins-ops', timeToProduction: 3 }], projectAverage: 3 },
      members: { currentMembers: 1, change: 1 },
      featureTypeCounts: [
        { type: 'operational', count: 1 },
        { type: 'release', count: 3 },
      ],
    });
    expect(res.body.stats.createdCurrentWindow).toBe(4);
    const dora = await read('ins/dora');
    expect(dora.body).toEqual({ features: [{ name: 'ins-ops', timeToProduction: 3 }], projectAverage: 3 });
    expect((await read('empty/dora')).body).toEqual({ features: [], projectAverage: 0 });
  });

  it('status: resources, activity by day, health, lifecycle stages, stale features', async () => {
    const res = await read('ins/status');
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body).toEqual({
      resources: { members: 1, apiTokens: 1, segments: 1 },
      activityCountByDate: [{ date: today, count: await eventCount() }],
      health: { current: 50 },
      technicalDebt: { current: 50 },
      lifecycleSummary: {
        initial: { averageDays: 1, currentFlags: 2 },
        preLive: { averageDays: null, currentFlags: 1 },
        live: { averageDays: null, currentFlags: 1 },
        completed: { averageDays: null, currentFlags: 0 },
        archived: { currentFlags: 1, last30Days: 1 },
      },
      staleFlags: { total: 2 },
    });
  });

  it('flag creators: the users who created live features', async () => {
    const res = await read('ins/flag-creators');
    expect(res.body).toEqual([{ id: editor.id, name: editor.username }]);
    expect((await read('empty/flag-creators')).body).toEqual([]);
  });

  it('answer any user; 404 for an unknown project; 403 for a client token; 401 without credentials', async () => {
    for (const path of ['overview', 'status', 'health-report', 'dora', 'insights', 'flag-creators']) {
      expect((await read(`ins/${path}`, viewer.pat)).status, path).toBe(200);
      const unknown = await read(`ghost/${path}`);
      expect(unknown.status, path).toBe(404);
      expect(unknown.body.name).toBe('NotFoundError');
      expect((await read(`ins/${path}`, CLIENT_TOKEN)).status, path).toBe(403);
      expect((await server.request('GET', `/api/admin/projects/ins/${path}`)).status, path).toBe(401);
    }
  });

  it('take any expected lifetime a feature type may have, to the largest', async () => {
    await expectStatus(server, 200, 'PUT', '/api/admin/feature-types/release/lifetime', {
      lifetimeDays: 2147483647,
    });
    for (const path of ['ins/overview', 'ins/status', 'ins/insights', 'ins/health-report']) {
      const res = await read(path);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
    expect((await read('ins/overview')).body.health).toBe(75);
    expect((await dashboardOf(viewer)).status).toBe(200);
    expect((await asAdmin(server, 'GET', '/api/admin/projects')).status).toBe(200);
    await expectStatus(server, 200, 'PUT', '/api/admin/feature-types/release/lifetime', { lifetimeDays: 40 });
  });
});
