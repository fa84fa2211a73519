import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup, createProject, createRole, expectAdminOnly, lastEvent } from '../../test/access.js';
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
const members = (...ids: number[]) => ids.map((id) => ({ user: { id } }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('POST /api/admin/groups', () => {
  it('creates a group with members: 201, the members with joinedAt, group-created with user ids', async () => {
    const events = await countEvents(server, 'group-created');
    const res = await server.request('POST', '/api/admin/groups', {
      ...admin(),
      body: {
        name: 'Frontend',
        description: 'The web team',
        mappingsSSO: ['web'],
        rootRole: 2,
        users: members(viewer.id, editor.id, viewer.id),
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
      const res = await server.request('POST', '/api/admin/groups', { ...admin(), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    const taken = await server.request('POST', '/api/admin/groups', {
      ...admin(),
      body: { name: 'Taken group' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe('NameExistsError');
    expect(await countEvents(server)).toBe(events);
    const list = await server.request('GET', '/api/admin/groups', admin());
    expect(list.body.groups.map((g: { name: string }) => g.name)).not.toContain('g');
  });

  it('is for Admins only; 415 for other bodies', async () => {
    await expectAdminOnly(server, 'POST', '/api/admin/groups', credentials, { name: 'Intruders' });
  });
});

describe('reading groups', () => {
  it('E17 shows one group with every member and when they joined; 404 unknown, 400 not an integer', async () => {
    const group = await createGroup(server, { name: 'Readers', users: members(viewer.id) });
    const res = await server.request('GET', `/api/admin/groups/${group.id}`, admin());
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
    expect((await server.request('GET', `/api/admin/groups/${empty.id}`, admin())).body.users).toEqual([]);
    expect((await server.request('GET', '/api/admin/groups/99999', admin())).status).toBe(404);
    expect((await server.request('GET', '/api/admin/groups/first', admin())).status).toBe(400);
  });

  it('lists every group with userCount and the projects it holds roles in', async () => {
    const group = await createGroup(server, { name: 'Counted', users: members(viewer.id, editor.id) });
    await server.request('POST', '/api/admin/projects/default/access', {
      ...admin(),
      body: { roles: [5], users: [], groups: [group.id] },
    });
    const res = await server.request('GET', '/api/admin/groups', admin());
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

describe('E19 PUT /api/admin/groups/:groupId', () => {
  it('replaces the fields and the members; those who stay keep joinedAt; group-updated with both sides', async () => {
    const stays = await createUser(server, 3);
    const leaves = await createUser(server, 3);
    const joins = await createUser(server, 3);
    const group = await createGroup(server, {
      name: 'Team A',
      description: 'first',
      rootRole: 2,
      users: members(stays.id, leaves.id),
    });
    const joinedBefore = group.users.find((u: { user: { id: number } }) => u.user.id === stays.id).joinedAt;
    await sleep(20);

    const res = await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(),
      body: { name: 'Team B', description: 'second', mappingsSSO: ['b'], users: members(stays.id, joins.id) },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: group.id,
      name: 'Team B',
      description: 'second',
      mappingsSSO: ['b'],
      rootRole: null,
      createdAt: group.createdAt,
    });

    const read = await server.request('GET', `/api/admin/groups/${group.id}`, admin());
    const byId = new Map(read.body.users.map((u: { user: { id: number } }) => [u.user.id, u]));
    expect([...byId.keys()].sort()).toEqual([stays.id, joins.id].sort());
    expect((byId.get(stays.id) as { joinedAt: string }).joinedAt).toBe(joinedBefore);
    expect(new Date((byId.get(joins.id) as { joinedAt: string }).joinedAt).getTime()).toBeGreaterThan(
      new Date(joinedBefore).getTime(),
    );
    expect(read.body.rootRole).toBeNull();

    const event = await lastEvent(server, 'group-updated');
    expect(event.preData).toMatchObject({ name: 'Team A', rootRole: 2 });
    expect([...event.preData.users].sort()).toEqual([stays.id, leaves.id].sort());
    expect(event.data).toMatchObject({ name: 'Team B', rootRole: null });
    expect([...event.data.users].sort()).toEqual([stays.id, joins.id].sort());
  });

  it('empties the group when users are left out; may keep its own name', async () => {
    const group = await createGroup(server, { name: 'Shrinking', users: members(viewer.id) });
    const res = await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(),
      body: { name: 'Shrinking' },
    });
    expect(res.status).toBe(200);
    expect(res.body.users).toEqual([]);
  });

  it('answers 400 for bad bodies, 404 for unknown groups, 409 for names of other groups; nothing changes', async () => {
    const group = await createGroup(server, { name: 'Stable', rootRole: 3, users: members(viewer.id) });
    await createGroup(server, { name: 'Other' });
    const events = await countEvents(server);
    const put = (id: number | string, body: unknown) =>
      server.request('PUT', `/api/admin/groups/${id}`, { ...admin(), body });
    for (const body of [
      { name: '' },
      { name: 'x', rootRole: 4 },
      { name: 'x', users: [{ user: { id: 99999 } }] },
      { name: 'x', users: [{}] },
    ]) {
      expect((await put(group.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await put('abc', { name: 'x' })).status).toBe(400);
    expect((await put(99999, { name: 'x' })).status).toBe(404);
    const taken = await put(group.id, { name: 'Other' });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe('NameExistsError');
    expect(await countEvents(server)).toBe(events);
    const read = await server.request('GET', `/api/admin/groups/${group.id}`, admin());
    expect(read.body).toMatchObject({ name: 'Stable', rootRole: 3 });
    expect(read.body.users).toHaveLength(1);
  });

  it('is for Admins only; 415 for other bodies', async () => {
    const group = await createGroup(server, { name: 'Locked', users: members(viewer.id) });
    await expectAdminOnly(server, 'PUT', `/api/admin/groups/${group.id}`, credentials, { name: 'Unlocked' });
    expect((await server.request('GET', `/api/admin/groups/${group.id}`, admin())).body.name).toBe('Locked');
  });
});

describe('DELETE /api/admin/groups/:groupId', () => {
  it('deletes a group, with group-deleted; 404 unknown; Admins only', async () => {
    const group = await createGroup(server, { name: 'Doomed', users: members(viewer.id) });
    await expectAdminOnly(server, 'DELETE', `/api/admin/groups/${group.id}`, credentials);
    const res = await server.request('DELETE', `/api/admin/groups/${group.id}`, admin());
    expect(res.status).toBe(200);
    expect((await server.request('GET', `/api/admin/groups/${group.id}`, admin())).status).toBe(404);
    const event = await lastEvent(server, 'group-deleted');
    expect(event.preData).toMatchObject({ id: group.id, name: 'Doomed', users: [viewer.id] });
    expect((await server.request('DELETE', `/api/admin/groups/${group.id}`, admin())).status).toBe(404);
  });
});

describe("a group's roles apply to its members on their next request", () => {
  it('root role: members gain it on joining, lose it on leaving or when it is cleared', async () => {
    const member = await createUser(server, 3);
    const attempt = (id: string) =>
      server.request('POST', '/api/admin/projects', { token: member.pat, body: { id, name: id } });
    expect((await attempt('g-before')).status).toBe(403);

    const group = await createGroup(server, {
      name: 'Editors by group',
      rootRole: 2,
      users: members(member.id),
    });
    expect((await attempt('g-joined')).status).toBe(201);

    await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(),
      body: { name: 'Editors by group', users: members(member.id) },
    });
    expect((await attempt('g-cleared')).status).toBe(403);

    await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(),
      body: { name: 'Editors by group', rootRole: 2, users: members(member.id) },
    });
    expect((await attempt('g-back')).status).toBe(201);

    await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(),
      body: { name: 'Editors by group', rootRole: 2, users: [] },
    });
    expect((await attempt('g-left')).status).toBe(403);
  });

  it('a custom root role given by a group works too, and deleting the group takes it away', async () => {
    const role = await createRole(server, {
      name: 'Group project maker',
      type: 'root-custom',
      permissions: [{ name: 'CREATE_PROJECT' }],
    });
    const member = await createUser(server, 3);
    const group = await createGroup(server, { name: 'Makers', rootRole: role, users: members(member.id) });
    const attempt = (id: string) =>
      server.request('POST', '/api/admin/projects', { token: member.pat, body: { id, name: id } });
    expect((await attempt('by-custom-group')).status).toBe(201);
    await server.request('DELETE', `/api/admin/groups/${group.id}`, admin());
    expect((await attempt('by-deleted-group')).status).toBe(403);
  });

  it('project roles granted to a group reach its members in that project only', async () => {
    await createProject(server, 'group-p');
    await createProject(server, 'group-q');
    const member = await createUser(server, 3);
    const group = await createGroup(server, { name: 'P members', users: [] });
    await server.request('POST', '/api/admin/projects/group-p/access', {
      ...admin(),
      body: { roles: [5], users: [], groups: [group.id] },
    });
    const create = (project: string, name: string) =>
      server.request('POST', `/api/admin/projects/${project}/features`, {
        token: member.pat,
        body: { name },
      });
    expect((await create('group-p', 'gp-before')).status).toBe(403);
    await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(),
      body: { name: 'P members', users: members(member.id) },
    });
    expect((await create('group-p', 'gp-member')).status).toBe(201);
    expect((await create('group-q', 'gq-member')).status).toBe(403);
    await server.request('PUT', `/api/admin/groups/${group.id}`, { ...admin(), body: { name: 'P members' } });
    expect((await create('group-p', 'gp-removed')).status).toBe(403);
  });
});
