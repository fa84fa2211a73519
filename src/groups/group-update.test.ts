import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Credentials,
  createGroup,
  createProject,
  createRole,
  expectAdminOnly,
  groupMembers,
  lastEvent,
  startAccessServer,
} from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, type TestServer, type TestUser } from '../../test/server.js';
import { sleep } from '../../test/time.js';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;
let credentials: Credentials;

beforeAll(async () => {
  ({ server, viewer, editor, credentials } = await startAccessServer());
});
afterAll(() => server.close());

describe('E19 PUT /api/admin/groups/:groupId', () => {
  it('replaces the fields and the members; those who stay keep joinedAt; group-updated with both sides', async () => {
    const stays = await createUser(server, 3);
    const leaves = await createUser(server, 3);
    const joins = await createUser(server, 3);
    const group = await createGroup(server, {
      name: 'Team A',
      description: 'first',
      rootRole: 2,
      users: groupMembers(stays.id, leaves.id),
    });
    const joinedBefore = group.users.find((u: { user: { id: number } }) => u.user.id === stays.id).joinedAt;
    await sleep(20);

    const res = await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(server),
      body: {
        name: 'Team B',
        description: 'second',
        mappingsSSO: ['b'],
        users: groupMembers(stays.id, joins.id),
      },
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

    const read = await server.request('GET', `/api/admin/groups/${group.id}`, admin(server));
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
    const group = await createGroup(server, { name: 'Shrinking', users: groupMembers(viewer.id) });
    const res = await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(server),
      body: { name: 'Shrinking' },
    });
    expect(res.status).toBe(200);
    expect(res.body.users).toEqual([]);
  });

  it('takes back what E17 answered: a read group sent as it is changes nothing', async () => {
    const group = await createGroup(server, {
      name: 'Round trip',
      description: 'as read',
      rootRole: 3,
      users: groupMembers(viewer.id, editor.id),
    });
    const read = await server.request('GET', `/api/admin/groups/${group.id}`, admin(server));
    const res = await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(server),
      body: read.body,
    });
    expect(res.status).toBe(200);
    expect((await server.request('GET', `/api/admin/groups/${group.id}`, admin(server))).body).toEqual(
      read.body,
    );
  });

  it('answers 400 for bad bodies, 404 for unknown groups, 409 for names of other groups; nothing changes', async () => {
    const group = await createGroup(server, { name: 'Stable', rootRole: 3, users: groupMembers(viewer.id) });
    await createGroup(server, { name: 'Other' });
    const events = await countEvents(server);
    const put = (id: number | string, body: unknown) =>
      server.request('PUT', `/api/admin/groups/${id}`, { ...admin(server), body });
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
    const read = await server.request('GET', `/api/admin/groups/${group.id}`, admin(server));
    expect(read.body).toMatchObject({ name: 'Stable', rootRole: 3 });
    expect(read.body.users).toHaveLength(1);
  });

  it('is for Admins only; 415 for other bodies', async () => {
    const group = await createGroup(server, { name: 'Locked', users: groupMembers(viewer.id) });
    await expectAdminOnly(server, 'PUT', `/api/admin/groups/${group.id}`, credentials, { name: 'Unlocked' });
    expect((await server.request('GET', `/api/admin/groups/${group.id}`, admin(server))).body.name).toBe(
      'Locked',
    );
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
      users: groupMembers(member.id),
    });
    expect((await attempt('g-joined')).status).toBe(201);

    await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(server),
      body: { name: 'Editors by group', users: groupMembers(member.id) },
    });
    expect((await attempt('g-cleared')).status).toBe(403);

    await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(server),
      body: { name: 'Editors by group', rootRole: 2, users: groupMembers(member.id) },
    });
    expect((await attempt('g-back')).status).toBe(201);

    await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(server),
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
    const group = await createGroup(server, {
      name: 'Makers',
      rootRole: role,
      users: groupMembers(member.id),
    });
    const attempt = (id: string) =>
      server.request('POST', '/api/admin/projects', { token: member.pat, body: { id, name: id } });
    expect((await attempt('by-custom-group')).status).toBe(201);
    await server.request('DELETE', `/api/admin/groups/${group.id}`, admin(server));
    expect((await attempt('by-deleted-group')).status).toBe(403);
  });

  it('project roles granted to a group reach its members in that project only', async () => {
    await createProject(server, 'group-p');
    await createProject(server, 'group-q');
    const member = await createUser(server, 3);
    const group = await createGroup(server, { name: 'P members', users: [] });
    await server.request('POST', '/api/admin/projects/group-p/access', {
      ...admin(server),
      body: { roles: [5], users: [], groups: [group.id] },
    });
    const create = (project: string, name: string) =>
      server.request('POST', `/api/admin/projects/${project}/features`, {
        token: member.pat,
        body: { name },
      });
    expect((await create('group-p', 'gp-before')).status).toBe(403);
    await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(server),
      body: { name: 'P members', users: groupMembers(member.id) },
    });
    expect((await create('group-p', 'gp-member')).status).toBe(201);
    expect((await create('group-q', 'gq-member')).status).toBe(403);
    await server.request('PUT', `/api/admin/groups/${group.id}`, {
      ...admin(server),
      body: { name: 'P members' },
    });
    expect((await create('group-p', 'gp-removed')).status).toBe(403);
  });
});
