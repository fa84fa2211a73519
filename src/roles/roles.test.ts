import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup, createRole, expectAdminOnly, lastEvent } from '../../test/access.js';
import {
  countEvents,
  createUser,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;
const client = `default:development.${'c'.repeat(56)}`;
let credentials: { viewer: string; editor: string; client: string };

beforeAll(async () => {
  server = await startTestServer({ INIT_BACKEND_API_TOKENS: client });
  viewer = await createUser(server, 3);
  editor = await createUser(server, 2);
  credentials = { viewer: viewer.pat, editor: editor.pat, client };
});
afterAll(() => server.close());

const admin = () => ({ token: server.adminToken });

async function roleNames(): Promise<string[]> {
  const res = await server.request('GET', '/api/admin/roles', admin());
  return res.body.roles.map((r: { name: string }) => r.name);
}

describe('reading roles and permissions', () => {
  it('lists the built-in roles with their types', async () => {
    const res = await server.request('GET', '/api/admin/roles', admin());
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.roles.slice(0, 5)).toEqual([
      expect.objectContaining({ id: 1, name: 'Admin', type: 'root' }),
      expect.objectContaining({ id: 2, name: 'Editor', type: 'root' }),
      expect.objectContaining({ id: 3, name: 'Viewer', type: 'root' }),
      expect.objectContaining({ id: 4, name: 'Owner', type: 'project' }),
      expect.objectContaining({ id: 5, name: 'Member', type: 'project' }),
    ]);
    expect(typeof res.body.roles[0].description).toBe('string');
  });

  it('shows one role with its permissions; 404 unknown, 400 not an integer', async () => {
    const adminRole = await server.request('GET', '/api/admin/roles/1', admin());
    expect(adminRole.status).toBe(200);
    expect(adminRole.body).toMatchObject({
      id: 1,
      name: 'Admin',
      type: 'root',
      permissions: [{ name: 'ADMIN' }],
    });
    const member = await server.request('GET', '/api/admin/roles/5', admin());
    const names = member.body.permissions.map((p: { name: string }) => p.name);
    expect(names).toContain('CREATE_FEATURE');
    expect(names).not.toContain('MOVE_FEATURE_TOGGLE');
    expect((await server.request('GET', '/api/admin/roles/9999', admin())).status).toBe(404);
    const bad = await server.request('GET', '/api/admin/roles/abc', admin());
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
  });

  it('lists every permission: instance-wide, per project, per environment', async () => {
    const res = await server.request('GET', '/api/admin/permissions', admin());
    expect(res.status).toBe(200);
    const { root, project, environments } = res.body.permissions;
    const names = (list: { name: string }[]) => list.map((p) => p.name);
    expect(names(root)).toEqual(expect.arrayContaining(['ADMIN', 'CREATE_PROJECT', 'CREATE_ROLE']));
    expect(names(project)).toEqual(expect.arrayContaining(['CREATE_FEATURE', 'MOVE_FEATURE_TOGGLE']));
    expect(environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
    expect(names(environments[0].permissions)).toEqual(
      expect.arrayContaining(['CREATE_FEATURE_STRATEGY', 'UPDATE_FEATURE_ENVIRONMENT']),
    );
    const all = [...names(root), ...names(project), ...names(environments[0].permissions)];
    expect(all).toHaveLength(36);
    expect(root[0]).toHaveProperty('displayName');
  });

  it('is refused without credentials, to Viewers, Editors and client tokens', async () => {
    for (const url of ['/api/admin/roles', '/api/admin/roles/1', '/api/admin/permissions']) {
      await expectAdminOnly(server, 'GET', url, credentials);
    }
  });
});

describe('POST /api/admin/roles', () => {
  it('creates a custom root role: 201, ids from 6, permissions without environments, role-created', async () => {
    const events = await countEvents(server, 'role-created');
    const res = await server.request('POST', '/api/admin/roles', {
      ...admin(),
      body: {
        name: 'Context keeper',
        description: 'Creates context fields',
        type: 'root-custom',
        permissions: [
          { name: 'CREATE_CONTEXT_FIELD', environment: 'development' },
          { name: 'CREATE_PROJECT' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      version: 1,
      roles: {
        id: expect.any(Number),
        name: 'Context keeper',
        description: 'Creates context fields',
        type: 'root-custom',
      },
    });
    expect(res.body.roles.id).toBeGreaterThanOrEqual(6);
    const read = await server.request('GET', `/api/admin/roles/${res.body.roles.id}`, admin());
    expect(read.body.permissions).toEqual([{ name: 'CREATE_CONTEXT_FIELD' }, { name: 'CREATE_PROJECT' }]);
    expect(await countEvents(server, 'role-created')).toBe(events + 1);
    const event = await lastEvent(server, 'role-created');
    expect(event.data).toMatchObject({
      id: res.body.roles.id,
      name: 'Context keeper',
      type: 'root-custom',
      permissions: [{ name: 'CREATE_CONTEXT_FIELD' }, { name: 'CREATE_PROJECT' }],
    });
  });

  it('creates a custom project role (the default type) with permissions per environment', async () => {
    const res = await server.request('POST', '/api/admin/roles', {
      ...admin(),
      body: {
        name: 'Dev deployer',
        permissions: [
          { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
          { name: 'CREATE_FEATURE_STRATEGY', environment: 'development' },
          { name: 'CREATE_FEATURE_STRATEGY', environment: 'development' },
          { name: 'CREATE_FEATURE', environment: 'production' },
          { name: 'UPDATE_FEATURE' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.roles).toMatchObject({ type: 'custom', description: '' });
    const read = await server.request('GET', `/api/admin/roles/${res.body.roles.id}`, admin());
    expect(read.body.permissions).toEqual([
      { name: 'CREATE_FEATURE' },
      { name: 'CREATE_FEATURE_STRATEGY', environment: 'development' },
      { name: 'UPDATE_FEATURE' },
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
    ]);
  });

  it('refuses bad bodies with 400, creating nothing and writing no event', async () => {
    const before = await roleNames();
    const events = await countEvents(server);
    const cases: unknown[] = [
      {},
      { name: '' },
      { name: '   ' },
      { name: 42 },
      { name: ['x'] },
      { name: 'x', type: 'root' },
      { name: 'x', type: 'project' },
      { name: 'x', type: 'superuser' },
      { name: 'x', description: 7 },
      { name: 'x', permissions: 'CREATE_FEATURE' },
      { name: 'x', permissions: [{}] },
      { name: 'x', permissions: [{ name: 'FLY' }] },
      { name: 'x', type: 'root-custom', permissions: [{ name: 'CREATE_PROJECT' }, { name: 'TELEPORT' }] },
      { name: 'x', type: 'custom', permissions: [{ name: 'CREATE_PROJECT' }] },
      { name: 'x', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'nowhere' }] },
    ];
    for (const body of cases) {
      const res = await server.request('POST', '/api/admin/roles', { ...admin(), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    const unknown = await server.request('POST', '/api/admin/roles', {
      ...admin(),
      body: { name: 'x', permissions: [{ name: 'FLY' }, { name: 'SWIM' }] },
    });
    expect(unknown.body.message).toContain('FLY, SWIM');
    expect(await roleNames()).toEqual(before);
    expect(await countEvents(server)).toBe(events);
  });

  it('answers 409 for a name any role has, in any case', async () => {
    await createRole(server, { name: 'Release manager' });
    const events = await countEvents(server);
    for (const name of ['Release manager', 'release MANAGER', 'Admin', 'member', '  Owner ']) {
      const res = await server.request('POST', '/api/admin/roles', { ...admin(), body: { name } });
      expect(res.status, name).toBe(409);
      expect(res.body.name).toBe('NameExistsError');
    }
    expect(await countEvents(server)).toBe(events);
  });

  it('is refused without credentials, to Viewers, Editors and client tokens; 415 for other bodies', async () => {
    await expectAdminOnly(server, 'POST', '/api/admin/roles', credentials, { name: 'Sneaky' });
    const bad = await server.request('POST', '/api/admin/roles', { token: viewer.pat, body: { name: 7 } });
    expect(bad.status).toBe(403);
    expect(await roleNames()).not.toContain('Sneaky');
  });
});

describe('E4 PUT /api/admin/roles/:roleId', () => {
  it('replaces name, description and permissions; GET shows them at once; role-updated with both sides', async () => {
    const id = await createRole(server, {
      name: 'Tagger',
      type: 'root-custom',
      permissions: [{ name: 'CREATE_TAG_TYPE' }],
    });
    const res = await server.request('PUT', `/api/admin/roles/${id}`, {
      ...admin(),
      body: {
        name: 'Tag master',
        description: 'All about tags',
        type: 'root-custom',
        permissions: [{ name: 'UPDATE_TAG_TYPE' }, { name: 'DELETE_TAG_TYPE' }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: 1,
      roles: { id, name: 'Tag master', description: 'All about tags', type: 'root-custom' },
    });
    const read = await server.request('GET', `/api/admin/roles/${id}`, admin());
    expect(read.body.permissions).toEqual([{ name: 'DELETE_TAG_TYPE' }, { name: 'UPDATE_TAG_TYPE' }]);
    const event = await lastEvent(server, 'role-updated');
    expect(event.preData).toMatchObject({ id, name: 'Tagger', permissions: [{ name: 'CREATE_TAG_TYPE' }] });
    expect(event.data).toMatchObject({
      id,
      name: 'Tag master',
      permissions: [{ name: 'DELETE_TAG_TYPE' }, { name: 'UPDATE_TAG_TYPE' }],
    });
  });

  it('keeps the permissions when they are left out, and may keep its own name', async () => {
    const id = await createRole(server, {
      name: 'Keeper',
      permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' }],
    });
    const res = await server.request('PUT', `/api/admin/roles/${id}`, {
      ...admin(),
      body: { name: 'Keeper', description: 'still here' },
    });
    expect(res.status).toBe(200);
    expect(res.body.roles).toMatchObject({ type: 'custom', description: 'still here' });
    const read = await server.request('GET', `/api/admin/roles/${id}`, admin());
    expect(read.body.permissions).toEqual([
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
    ]);
    const emptied = await server.request('PUT', `/api/admin/roles/${id}`, {
      ...admin(),
      body: { name: 'Keeper', permissions: [] },
    });
    expect(emptied.status).toBe(200);
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin())).body.permissions).toEqual([]);
  });

  it('checks in order: body 400, unknown 404, built-in 403, taken name 409; nothing changes', async () => {
    const id = await createRole(server, { name: 'Ordered' });
    await createRole(server, { name: 'Taken' });
    const events = await countEvents(server);
    const put = (roleId: number | string, body: unknown) =>
      server.request('PUT', `/api/admin/roles/${roleId}`, { ...admin(), body });

    expect((await put(9999, { name: '' })).status).toBe(400);
    expect((await put(1, { name: 'x', permissions: [{ name: 'NOPE' }] })).status).toBe(400);
    expect((await put(1, { name: 'x', type: 'root' })).status).toBe(400);
    expect((await put('abc', { name: 'x' })).status).toBe(400);
    const missing = await put(9999, { name: 'Taken' });
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
    for (const builtIn of [1, 2, 3, 4, 5]) {
      const res = await put(builtIn, { name: 'Taken', type: 'root-custom' });
      expect(res.status, String(builtIn)).toBe(403);
      expect(res.body.name).toBe('NoAccessError');
    }
    const taken = await put(id, { name: 'taken' });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe('NameExistsError');
    expect((await put(id, { name: 'Viewer' })).status).toBe(409);

    expect(await countEvents(server)).toBe(events);
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin())).body.name).toBe('Ordered');
    expect((await server.request('GET', '/api/admin/roles/1', admin())).body.name).toBe('Admin');
  });

  it('is refused without credentials, to Viewers, Editors and client tokens; 415 for other bodies', async () => {
    const id = await createRole(server, { name: 'Guarded' });
    await expectAdminOnly(server, 'PUT', `/api/admin/roles/${id}`, credentials, { name: 'Hijacked' });
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin())).body.name).toBe('Guarded');
  });

  it('changes the type of a role nobody holds; refuses (409) while someone does', async () => {
    const id = await createRole(server, { name: 'Shape shifter', permissions: [{ name: 'UPDATE_FEATURE' }] });
    const toRoot = await server.request('PUT', `/api/admin/roles/${id}`, {
      ...admin(),
      body: { name: 'Shape shifter', type: 'root-custom' },
    });
    expect(toRoot.status).toBe(200);
    expect(toRoot.body.roles.type).toBe('root-custom');
    await createUser(server, id);
    const back = await server.request('PUT', `/api/admin/roles/${id}`, {
      ...admin(),
      body: { name: 'Shape shifter', type: 'custom' },
    });
    expect(back.status).toBe(409);
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin())).body.type).toBe('root-custom');
  });
});

describe('DELETE /api/admin/roles/:id', () => {
  it('deletes a custom role nobody holds, with role-deleted', async () => {
    const id = await createRole(server, { name: 'Short lived', permissions: [{ name: 'UPDATE_FEATURE' }] });
    const res = await server.request('DELETE', `/api/admin/roles/${id}`, admin());
    expect(res.status).toBe(200);
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin())).status).toBe(404);
    const event = await lastEvent(server, 'role-deleted');
    expect(event.preData).toMatchObject({
      id,
      name: 'Short lived',
      permissions: [{ name: 'UPDATE_FEATURE' }],
    });
  });

  it('refuses built-in roles (403), roles held by users or groups (409), unknown ids (404)', async () => {
    const events = await countEvents(server);
    for (const id of [1, 3, 4, 5]) {
      expect((await server.request('DELETE', `/api/admin/roles/${id}`, admin())).status).toBe(403);
    }
    expect(await countEvents(server)).toBe(events);
    const byUser = await createRole(server, { name: 'Held by a user', type: 'root-custom' });
    await createUser(server, byUser);
    const byGroup = await createRole(server, { name: 'Held by a group', type: 'root-custom' });
    await createGroup(server, { name: 'holders', rootRole: byGroup });
    const afterSetup = await countEvents(server);
    for (const id of [byUser, byGroup]) {
      const res = await server.request('DELETE', `/api/admin/roles/${id}`, admin());
      expect(res.status).toBe(409);
      expect(res.body.message).toContain('hold it');
      expect((await server.request('GET', `/api/admin/roles/${id}`, admin())).status).toBe(200);
    }
    expect((await server.request('DELETE', '/api/admin/roles/9999', admin())).status).toBe(404);
    expect((await server.request('DELETE', '/api/admin/roles/x', admin())).status).toBe(400);
    expect(await countEvents(server)).toBe(afterSetup);
  });

  it('is refused without credentials, to Viewers, Editors and client tokens', async () => {
    const id = await createRole(server, { name: 'Undeletable by others' });
    await expectAdminOnly(server, 'DELETE', `/api/admin/roles/${id}`, credentials);
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin())).status).toBe(200);
  });
});

describe('custom root roles govern what their holders may do', () => {
  it('a user created with a custom root role holds exactly its permissions, changed by E4 at once', async () => {
    const id = await createRole(server, {
      name: 'Project maker',
      type: 'root-custom',
      permissions: [{ name: 'CREATE_PROJECT' }],
    });
    const maker = await createUser(server, id);
    const read = await server.request('GET', `/api/admin/user-admin/${maker.id}`, admin());
    expect(read.body.rootRole).toBe(id);

    const made = await server.request('POST', '/api/admin/projects', {
      token: maker.pat,
      body: { id: 'made-by-custom', name: 'Made' },
    });
    expect(made.status).toBe(201);
    const feature = await server.request('POST', '/api/admin/projects/default/features', {
      token: maker.pat,
      body: { name: 'not-allowed' },
    });
    expect(feature.status).toBe(403);
    const plain = await createUser(server, 3);
    const refused = await server.request('POST', '/api/admin/projects', {
      token: plain.pat,
      body: { id: 'made-by-viewer', name: 'No' },
    });
    expect(refused.status).toBe(403);

    const changed = await server.request('PUT', `/api/admin/roles/${id}`, {
      ...admin(),
      body: { name: 'Project maker', type: 'root-custom', permissions: [{ name: 'CREATE_FEATURE' }] },
    });
    expect(changed.status).toBe(200);
    const again = await server.request('POST', '/api/admin/projects', {
      token: maker.pat,
      body: { id: 'made-again', name: 'Again' },
    });
    expect(again.status).toBe(403);
    const nowFeature = await server.request('POST', '/api/admin/projects/default/features', {
      token: maker.pat,
      body: { name: 'now-allowed' },
    });
    expect(nowFeature.status).toBe(201);
  });

  it('refuses a project role as a root role for users', async () => {
    const id = await createRole(server, { name: 'Only in projects' });
    const res = await server.request('POST', '/api/admin/user-admin', {
      ...admin(),
      body: { username: 'not-rooted', rootRole: id },
    });
    expect(res.status).toBe(400);
  });

  it('lets a role manager who is not an Admin give only permissions they hold', async () => {
    const managerRole = await createRole(server, {
      name: 'Role manager',
      type: 'root-custom',
      permissions: [{ name: 'CREATE_ROLE' }, { name: 'UPDATE_ROLE' }, { name: 'CREATE_CONTEXT_FIELD' }],
    });
    const manager = await createUser(server, managerRole);
    expect((await server.request('GET', '/api/admin/roles', { token: manager.pat })).status).toBe(200);
    const ok = await server.request('POST', '/api/admin/roles', {
      token: manager.pat,
      body: { name: 'Context only', type: 'root-custom', permissions: [{ name: 'CREATE_CONTEXT_FIELD' }] },
    });
    expect(ok.status).toBe(201);
    const events = await countEvents(server);
    const wider = await server.request('POST', '/api/admin/roles', {
      token: manager.pat,
      body: { name: 'Too much', type: 'root-custom', permissions: [{ name: 'ADMIN' }] },
    });
    expect(wider.status).toBe(403);
    const widenOwn = await server.request('PUT', `/api/admin/roles/${managerRole}`, {
      token: manager.pat,
      body: {
        name: 'Role manager',
        type: 'root-custom',
        permissions: [{ name: 'CREATE_ROLE' }, { name: 'UPDATE_ROLE' }, { name: 'CREATE_PROJECT' }],
      },
    });
    expect(widenOwn.status).toBe(403);
    expect(await countEvents(server)).toBe(events);
    expect(
      (await server.request('DELETE', `/api/admin/roles/${ok.body.roles.id}`, { token: manager.pat })).status,
    ).toBe(403);
  });
});
