import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../../test/feature-ops.js';
import { CLIENT_TOKEN, startEnv } from '../../test/features.js';
import {
  createProject,
  createUser,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

// The creators of live features across projects, for the admin UI's "created by" filter: a private
// project's creators are hidden from who may not see the project.

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let outsider: TestUser;

const creators = (token: string, query = '') =>
  server.request('GET', `/api/admin/flag-creators${query}`, { token });

beforeAll(async () => {
  server = await startTestServer(startEnv());
  [alice, bob, carol, outsider] = [
    await createUser(server, 2, 'alice'),
    await createUser(server, 2, 'bob'),
    await createUser(server, 2, 'carol'),
    await createUser(server, 3, 'outsider'),
  ];
  await createProject(server, 'hush');
  const create = (user: TestUser, project: string, name: string) =>
    server.request('POST', `/api/admin/projects/${project}/features`, { token: user.pat, body: { name } });
  expect((await create(alice, 'default', 'alice-flag')).status).toBe(201);
  expect((await create(alice, 'default', 'alice-other')).status).toBe(201);
  expect((await create(bob, 'hush', 'bob-flag')).status).toBe(201);
  expect((await create(carol, 'default', 'carol-flag')).status).toBe(201);
  await expectStatus(server, 202, 'POST', '/api/admin/projects/default/archive', {
    features: ['carol-flag'],
  });
  await expectStatus(server, 200, 'PUT', '/api/admin/projects/hush', { name: 'Hush', mode: 'private' });
});
afterAll(() => server.close());

describe('GET /api/admin/flag-creators', () => {
  it('the users who created live features, once each, by name, with their number', async () => {
    const res = await creators(server.adminToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      flagCreators: [
        { id: alice.id, name: 'alice' },
        { id: bob.id, name: 'bob' },
      ],
      total: 2,
    });
  });

  it("leaves out the creators of private projects' features for who may not see them", async () => {
    const res = await creators(outsider.pat);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ flagCreators: [{ id: alice.id, name: 'alice' }], total: 1 });
  });

  it('searches and pages; paging out of range falls back to the first 50', async () => {
    expect((await creators(server.adminToken, '?q=OB')).body).toEqual({
      flagCreators: [{ id: bob.id, name: 'bob' }],
      total: 1,
    });
    expect((await creators(server.adminToken, '?q=b%25')).body).toEqual({ flagCreators: [], total: 0 });
    expect((await creators(server.adminToken, '?limit=1&offset=1')).body).toEqual({
      flagCreators: [{ id: bob.id, name: 'bob' }],
      total: 2,
    });
    expect((await creators(server.adminToken, '?limit=0&offset=-3')).body.flagCreators).toHaveLength(2);
    for (const offset of ['9223372036854775808', '2147483648', '1e300']) {
      const far = await creators(server.adminToken, `?offset=${offset}`);
      expect(far.status).toBe(200);
    }
    expect((await creators(server.adminToken, '?limit=10001')).body.flagCreators).toHaveLength(2);
  });

  it('is for anyone signed in: 401 without credentials, 403 for an SDK token', async () => {
    expect((await server.request('GET', '/api/admin/flag-creators')).status).toBe(401);
    expect((await creators(CLIENT_TOKEN)).status).toBe(403);
  });
});
