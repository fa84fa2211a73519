import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, expectStatus } from '../../test/feature-ops.js';
import { CLIENT_TOKEN, createFeature, createProject, grantRole, startEnv } from '../../test/features.js';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../test/server.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  server = await startTestServer(startEnv());
  alice = await createUser(server, 3);
  bob = await createUser(server, 3);
  for (const id of ['dash-a', 'dash-b', 'dash-empty']) await createProject(server, id);
  await grantRole(server, alice.id, 'dash-a', 4);
  await createFeature(server, 'dash-other', 'dash-b');
  const own = await server.request('POST', '/api/admin/projects/dash-a/features', {
    token: alice.pat,
    body: { name: 'dash-flag' },
  });
  expect(own.status).toBe(201);
  await expectStatus(server, 202, 'POST', '/api/admin/projects/dash-a/stale', {
    features: ['dash-flag'],
    stale: true,
  });
  for (const url of [
    '/api/admin/projects/dash-b/favorites',
    '/api/admin/projects/dash-b/features/dash-other/favorites',
  ]) {
    expect((await server.request('POST', url, { token: alice.pat })).status).toBe(200);
  }
});
afterAll(() => server.close());

const dashboard = (token: string | undefined, path = '') =>
  server.request('GET', `/api/admin/personal-dashboard${path}`, { token });

describe('GET /api/admin/personal-dashboard', () => {
  it('shows the user’s projects (roles and favorites), flags (created or favorite), Admins and project owners', async () => {
    const res = await dashboard(alice.pat);
    expect(res.status).toBe(200);
    expect(res.body.projects).toEqual([
      { id: 'dash-a', name: 'dash-a', health: 0, technicalDebt: 100, memberCount: 1, featureCount: 1 },
      { id: 'dash-b', name: 'dash-b', health: 100, technicalDebt: 0, memberCount: 0, featureCount: 1 },
    ]);
    expect(res.body.flags).toEqual([
      { name: 'dash-flag', project: 'dash-a', type: 'release' },
      { name: 'dash-other', project: 'dash-b', type: 'release' },
    ]);
    expect(res.body.admins).toContainEqual(
      expect.objectContaining({ id: expect.any(Number), username: 'admin' }),
    );
    expect(res.body.admins.some((a: { username?: string }) => a.username === alice.username)).toBe(false);
    expect(res.body.projectOwners).toEqual([
      {
        ownerType: 'user',
        name: alice.username,
        email: `${alice.username}@example.com`,
        imageUrl: expect.stringMatching(/^https:\/\/gravatar\.com\/avatar\//),
      },
    ]);
  });

  it('shows another user only their own', async () => {
    const res = await dashboard(bob.pat);
    expect(res.body).toMatchObject({ projects: [], flags: [] });
  });

  it('is a user’s only: 401 for an API token or no credentials, 403 for a client token', async () => {
    expect((await dashboard(server.adminToken)).status).toBe(401);
    expect((await dashboard(undefined)).status).toBe(401);
    expect((await dashboard(CLIENT_TOKEN)).status).toBe(403);
  });
});

describe('GET /api/admin/personal-dashboard/:projectId', () => {
  it('shows the latest events, onboarding, owners, the user’s roles and the health counts', async () => {
    const res = await dashboard(alice.pat, '/dash-a');
    expect(res.status).toBe(200);
    const events = (await asAdmin(server, 'GET', '/api/admin/events?project=dash-a')).body.events;
    expect(res.body.latestEvents.map((e: { id: number }) => e.id)).toEqual(
      events.slice(0, 10).map((e: { id: number }) => e.id),
    );
    const created = res.body.latestEvents.find((e: { summary: string }) =>
      e.summary.includes('feature-created'),
    );
    expect(created).toEqual({
      id: expect.any(Number),
      summary: `**${alice.username}** feature-created on **dash-flag**`,
      createdBy: alice.username,
      createdByImageUrl: expect.stringMatching(/^https:\/\/gravatar\.com\/avatar\//),
      createdAt: expect.any(String),
    });
    expect(res.body).toMatchObject({
      onboardingStatus: { status: 'first-flag-created', feature: 'dash-flag' },
      owners: [{ ownerType: 'user', name: alice.username }],
      roles: [{ id: 4, name: 'Owner', type: 'project' }],
      insights: {
        avgHealthCurrentWindow: null,
        avgHealthPastWindow: null,
        totalFlags: 1,
        activeFlags: 0,
        staleFlags: 1,
        potentiallyStaleFlags: 0,
        health: 0,
        technicalDebt: 100,
      },
    });
  });

  it('says when a project has no owner, no role of the user, or no feature yet', async () => {
    const b = await dashboard(alice.pat, '/dash-b');
    expect(b.body).toMatchObject({ owners: [{ ownerType: 'system' }], roles: [] });
    const empty = await dashboard(alice.pat, '/dash-empty');
    expect(empty.body).toMatchObject({
      latestEvents: [expect.objectContaining({ summary: expect.stringContaining('project-created') })],
      onboardingStatus: { status: 'onboarding-started' },
      insights: { totalFlags: 0, health: 100 },
    });
  });

  it('answers 404 for an unknown project; 401 for an API token or no credentials', async () => {
    const unknown = await dashboard(alice.pat, '/ghost');
    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
    expect((await dashboard(server.adminToken, '/dash-a')).status).toBe(401);
    expect((await dashboard(undefined, '/dash-a')).status).toBe(401);
    expect((await dashboard(CLIENT_TOKEN, '/dash-a')).status).toBe(403);
  });
});
