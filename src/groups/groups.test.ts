import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Credentials,
  createGroup,
  expectAdminOnly,
  groupMembers,
  lastEvent,
  startAccessServer,
} from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, type TestServer, type TestUser } from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;
let credentials: Credentials;

beforeAll(async () => {
  ({ server, viewer, editor, credentials } = await startAccessServer());
});
afterAll(() => server.close());

describe('POST /api/admin/groups', () => {
  it('creates a group with members: 201, the members with joinedAt, group-created with user ids', async () => {
    const events = await countEvents(server, 'group-created');
    const res = await server.request('POST', '/api/admin/groups', {
      ...admin(server),
      body: {
        name: 'Frontend',
        description: 'The web team',
        mappingsSSO: ['web'],
        rootRole: 2,
        users: groupMembers(viewer.id, editor.id, viewer.id),
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: 'Frontend',
      description: 'The web team',
      mappingsSSO: ['web'],
      rootRole: 2,
      createdBy: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(res.body.users.map((u: { user: { id: number } }) => u.user.id).sort()).toEqual(
      [viewer.id, editor.id].sort(),
    );
    expect(res.body.users[0]).toMatchObject({
      joinedAt: expect.any(String),
      user: { username: expect.any(String) },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
    expect(await countEvents(server, 'group-created')).toBe(events + 1);
    const event = await lastEvent(server, 'group-created');
    expect(event.data).toMatchObject({ id: res.body.id, name: 'Frontend', rootRole: 2 });
    expect([...event.data.users].sort()).toEqual([viewer.id, editor.id].sort());
  });

  it('defaults: no description, no mappings, no root role, no members', async () => {
    const group = await createGroup(server, { name: 'Bare' });
    expect(group).toMatchObject({ description: null, mappingsSSO: [], rootRole: null, users: [] });
  });

  it('refuses bad bodies with 400 and taken names with 409, creating nothing', async () => {
    await createGroup(server, { name: 'Taken group' });
    const events = await countEvents(server);
    const cases: unknown[] = [
      {},
      { name: '' },
      { name: '  ' },
      { name: 5 },
      { name: 'g', rootRole: 4 },
      { name: 'g', rootRole: 5 },
      { name: 'g', rootRole: 99 },
      { name: 'g', rootRole: 'Admin' },
      { name: 'g', rootRole: 1.5 },
      { name: 'g', mappingsSSO: 'web' },
      { name: 'g', description: 3 },
      { name: 'g', users: [{}] },
      { name: 'g', users: [{ user: {} }] },
      { name: 'g', users: [{ user: { id: 'x' } }] },
      { name: 'g', users: [{ user: { id: 99999 } }] },
      { name: 'g', users: { user: { id: 1 } } },
    ];
    for (const body of cases) {
      const res = await server.request('POST', '/api/admin/groups', { ...admin(server), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    const taken = await server.request('POST', '/api/admin/groups', {
      ...admin(server),
      body: { name: 'Taken group' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe('NameExistsError');
    expect(await countEvents(server)).toBe(events);
    const list = await server.request('GET', '/api/admin/groups', admin(server));
    expect(list.body.groups.map((g: { name: string }) => g.name)).not.toContain('g');
  });

  it('refuses a root role id beyond int4 with 400 naming rootRole', async () => {
    const res = await server.request('POST', '/api/admin/groups', {
      ...admin(server),
      body: { name: 'huge-role', rootRole: 2147483648 },
    });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details).toContainEqual({
      path: 'rootRole',
      message: 'The `rootRole` property must be <= 2147483647.',
    });
  });

  it('is for Admins only; 415 for other bodies', async () => {
    await expectAdminOnly(server, 'POST', '/api/admin/groups', credentials, { name: 'Intruders' });
  });
});

describe('E17 and the list: reading groups', () => {
  it('E17 shows one group with every member and when they joined; 404 unknown, 400 not an integer', async () => {
    const group = await createGroup(server, { name: 'Readers', users: groupMembers(viewer.id) });
    const res = await server.request('GET', `/api/admin/groups/${group.id}`, admin(server));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: group.id, name: 'Readers', rootRole: null });
    expect(res.body.users).toEqual([
      {
        user: expect.objectContaining({ id: viewer.id, username: viewer.username, rootRole: 3 }),
        joinedAt: expect.any(String),
        createdBy: expect.any(String),
      },
    ]);
    const empty = await createGroup(server, { name: 'Nobody' });
    expect((await server.request('GET', `/api/admin/groups/${empty.id}`, admin(server))).body.users).toEqual(
      [],
    );
    expect((await server.request('GET', '/api/admin/groups/99999', admin(server))).status).toBe(404);
    expect((await server.request('GET', '/api/admin/groups/first', admin(server))).status).toBe(400);
  });

  it('lists every group with userCount and the projects it holds roles in', async () => {
    const group = await createGroup(server, { name: 'Counted', users: groupMembers(viewer.id, editor.id) });
    await server.request('POST', '/api/admin/projects/default/access', {
      ...admin(server),
      body: { roles: [5], users: [], groups: [group.id] },
    });
    const res = await server.request('GET', '/api/admin/groups', admin(server));
    expect(res.status).toBe(200);
    const listed = res.body.groups.find((g: { id: number }) => g.id === group.id);
    expect(listed).toMatchObject({ name: 'Counted', userCount: 2, projects: ['default'] });
    expect(listed.users).toHaveLength(2);
  });

  it('is for Admins only', async () => {
    const group = await createGroup(server, { name: 'Private' });
    await expectAdminOnly(server, 'GET', '/api/admin/groups', credentials);
    await expectAdminOnly(server, 'GET', `/api/admin/groups/${group.id}`, credentials);
  });
});

describe('DELETE /api/admin/groups/:groupId', () => {
  it('deletes a group, with group-deleted; 404 unknown; Admins only', async () => {
    const group = await createGroup(server, { name: 'Doomed', users: groupMembers(viewer.id) });
    await expectAdminOnly(server, 'DELETE', `/api/admin/groups/${group.id}`, credentials);
    const res = await server.request('DELETE', `/api/admin/groups/${group.id}`, admin(server));
    expect(res.status).toBe(200);
    expect((await server.request('GET', `/api/admin/groups/${group.id}`, admin(server))).status).toBe(404);
    const event = await lastEvent(server, 'group-deleted');
    expect(event.preData).toMatchObject({ id: group.id, name: 'Doomed', users: [viewer.id] });
    expect((await server.request('DELETE', `/api/admin/groups/${group.id}`, admin(server))).status).toBe(404);
  });
});
