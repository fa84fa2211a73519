import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProject,
  createUser,
  startTestServer,
  type TestServer,
  type TestUser,
  writeDirectly,
} from '../../test/server.js';

let server: TestServer;
let editor: TestUser;
let viewer: TestUser;
let groupId: number;

beforeAll(async () => {
  server = await startTestServer();
  editor = await createUser(server, 2);
  viewer = await createUser(server, 3);
  await createProject(server, 'alpha');
  await createProject(server, 'beta');
  // The viewer is an Owner (4) of alpha directly, and a Member (5) of beta through a group that
  // also gives the Editor root role (2).
  const direct = await server.request('POST', '/api/admin/projects/alpha/access', {
    token: server.adminToken,
    body: { roles: [4], users: [viewer.id], groups: [] },
  });
  expect(direct.status).toBe(200);
  const group = await server.request('POST', '/api/admin/groups', {
    token: server.adminToken,
    body: { name: 'Web', description: 'The web team', rootRole: 2, users: [{ user: { id: viewer.id } }] },
  });
  expect(group.status).toBe(201);
  groupId = group.body.id;
  const viaGroup = await server.request('POST', '/api/admin/projects/beta/access', {
    token: server.adminToken,
    body: { roles: [5], users: [], groups: [groupId] },
  });
  expect(viaGroup.status).toBe(200);
});
afterAll(() => server.close());

describe('GET /api/admin/user/profile', () => {
  it("answers the caller's root role, projects, groups and whether they have a password", async () => {
    const res = await server.request('GET', '/api/admin/user/profile', { token: viewer.pat });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      rootRole: expect.objectContaining({ id: 3, name: 'Viewer', type: 'root', project: null }),
      projects: ['alpha', 'beta'],
      groups: [{ id: groupId, name: 'Web', description: 'The web team', mappingsSSO: [], rootRole: 2 }],
      subscriptions: [],
      features: [],
      canChangePassword: true,
    });
  });

  it('follows changes: a user without grants or groups has none, with a session too', async () => {
    const res = await server.request('GET', '/api/admin/user/profile', { cookie: editor.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rootRole: { id: 2, name: 'Editor' }, projects: [], groups: [] });
  });

  it('reports canChangePassword false for a user without a password of their own', async () => {
    const other = await createUser(server, 3);
    await writeDirectly(server, 'UPDATE users SET password_hash = NULL WHERE id = $1', [other.id]);
    const res = await server.request('GET', '/api/admin/user/profile', { token: other.pat });
    expect(res.status).toBe(200);
    expect(res.body.canChangePassword).toBe(false);
  });

  it('needs credentials of a user: none → 401, an API token → 401 AuthenticationRequired', async () => {
    expect((await server.request('GET', '/api/admin/user/profile')).status).toBe(401);
    const res = await server.request('GET', '/api/admin/user/profile', { token: server.adminToken });
    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
  });
});

describe('GET /api/admin/user/roles', () => {
  it('lists root roles (own, then through groups) and project roles (direct and through groups)', async () => {
    const res = await server.request('GET', '/api/admin/user/roles', { token: viewer.pat });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.roles.map((r: { id: number; project: string | null }) => [r.id, r.project])).toEqual([
      [3, null],
      [2, null],
      [4, 'alpha'],
      [5, 'beta'],
    ]);
    expect(res.body.roles[2]).toEqual({
      id: 4,
      name: 'Owner',
      type: 'project',
      description: expect.any(String),
      project: 'alpha',
    });
  });

  it('narrows project roles to ?projectId= (root roles stay; an unknown project has none)', async () => {
    const beta = await server.request('GET', '/api/admin/user/roles?projectId=beta', { token: viewer.pat });
    expect(beta.body.roles.map((r: { id: number }) => r.id)).toEqual([3, 2, 5]);
    const none = await server.request('GET', '/api/admin/user/roles?projectId=nope', { token: viewer.pat });
    expect(none.status).toBe(200);
    expect(none.body.roles.map((r: { id: number }) => r.id)).toEqual([3, 2]);
  });

  it('sees a grant removed at once', async () => {
    const removed = await server.request('DELETE', `/api/admin/projects/alpha/users/${viewer.id}/roles`, {
      token: server.adminToken,
    });
    expect(removed.status).toBe(200);
    const res = await server.request('GET', '/api/admin/user/roles', { cookie: viewer.cookie });
    expect(res.body.roles.map((r: { id: number }) => r.id)).toEqual([3, 2, 5]);
    const profile = await server.request('GET', '/api/admin/user/profile', { cookie: viewer.cookie });
    expect(profile.body.projects).toEqual(['beta']);
  });

  it('answers 400 for an empty projectId, 401 without a user', async () => {
    const empty = await server.request('GET', '/api/admin/user/roles?projectId=', { token: viewer.pat });
    expect(empty.status).toBe(400);
    expect(empty.body.name).toBe('ValidationError');
    expect((await server.request('GET', '/api/admin/user/roles')).status).toBe(401);
    expect((await server.request('GET', '/api/admin/user/roles', { token: server.adminToken })).status).toBe(
      401,
    );
  });
});
