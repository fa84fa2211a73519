import { describe, expect, it } from 'vitest';
import {
  createFeature,
  createGroup,
  createProject,
  credentials,
  expectAdminOnly,
  featureMaker,
  grant,
  lastEvent,
  readAccess,
  rolesOf,
  server,
  useProjectAccessFixture,
  viewer,
} from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser } from '../../test/server.js';

useProjectAccessFixture();

const access = readAccess;

describe("changing and removing a user's roles in a project", () => {
  it('PUT replaces them, DELETE removes them, each with its event, effective at once', async () => {
    await createProject(server, 'changing');
    const user = await createUser(server, 3);
    await grant(server, 'changing', { roles: [5], users: [user.id] });
    expect((await createFeature(server, user.pat, 'changing')).status).toBe(201);

    const put = await server.request('PUT', `/api/admin/projects/changing/users/${user.id}/roles`, {
      ...admin(server),
      body: { roles: [4, featureMaker] },
    });
    expect(put.status).toBe(200);
    expect(rolesOf((await access('changing')).users, user.id)).toEqual([4, featureMaker]);
    const updated = await lastEvent(server, 'project-access-user-roles-updated');
    expect(updated).toMatchObject({
      project: 'changing',
      data: { userId: user.id, roles: [4, featureMaker] },
      preData: { userId: user.id, roles: [5] },
    });

    const del = await server.request(
      'DELETE',
      `/api/admin/projects/changing/users/${user.id}/roles`,
      admin(server),
    );
    expect(del.status).toBe(200);
    expect(rolesOf((await access('changing')).users, user.id)).toBeUndefined();
    expect((await createFeature(server, user.pat, 'changing')).status).toBe(403);
    const deleted = await lastEvent(server, 'project-access-user-roles-deleted');
    expect(deleted).toMatchObject({
      project: 'changing',
      preData: { userId: user.id, roles: [4, featureMaker] },
    });
  });

  it('answers 400 for bad bodies and ids, 404 for unknown projects and users; nothing changes', async () => {
    await grant(server, 'q', { roles: [5], users: [viewer.id] });
    const before = await access('q');
    const events = await countEvents(server);
    const put = (path: string, body: unknown) => server.request('PUT', path, { ...admin(server), body });
    for (const body of [{ roles: [] }, { roles: [1] }, { roles: [9999] }, {}, { roles: 'all' }]) {
      expect(
        (await put(`/api/admin/projects/q/users/${viewer.id}/roles`, body)).status,
        JSON.stringify(body),
      ).toBe(400);
      expect((await put(`/api/admin/projects/q/groups/1/roles`, body)).status).toBe(400);
    }
    expect((await put('/api/admin/projects/q/users/abc/roles', { roles: [5] })).status).toBe(400);
    expect((await put(`/api/admin/projects/nope/users/${viewer.id}/roles`, { roles: [5] })).status).toBe(404);
    expect((await put('/api/admin/projects/q/users/99999/roles', { roles: [5] })).status).toBe(404);
    expect((await put('/api/admin/projects/q/groups/99999/roles', { roles: [5] })).status).toBe(404);
    expect(
      (await server.request('DELETE', '/api/admin/projects/q/users/99999/roles', admin(server))).status,
    ).toBe(404);
    expect(
      (await server.request('DELETE', `/api/admin/projects/nope/users/${viewer.id}/roles`, admin(server)))
        .status,
    ).toBe(404);
    expect(
      (await server.request('DELETE', '/api/admin/projects/q/groups/x/roles', admin(server))).status,
    ).toBe(400);
    expect(await access('q')).toEqual(before);
    expect(await countEvents(server)).toBe(events);
  });

  it('is refused without credentials, to Viewers, Editors and client tokens; 415 for other bodies', async () => {
    const group = await createGroup(server, { name: 'Guarded group' });
    await grant(server, 'q', { roles: [5], users: [viewer.id], groups: [group.id] });
    const before = await access('q');
    await expectAdminOnly(server, 'PUT', `/api/admin/projects/q/users/${viewer.id}/roles`, credentials, {
      roles: [4],
    });
    await expectAdminOnly(server, 'DELETE', `/api/admin/projects/q/users/${viewer.id}/roles`, credentials);
    await expectAdminOnly(server, 'PUT', `/api/admin/projects/q/groups/${group.id}/roles`, credentials, {
      roles: [4],
    });
    await expectAdminOnly(server, 'DELETE', `/api/admin/projects/q/groups/${group.id}/roles`, credentials);
    expect(await access('q')).toEqual(before);
  });
});

describe("changing and removing a group's roles in a project", () => {
  it('PUT replaces them, DELETE removes them; members feel it on their next request', async () => {
    await createProject(server, 'grouped');
    const member = await createUser(server, 3);
    const group = await createGroup(server, { name: 'Grouped team', users: [{ user: { id: member.id } }] });
    await grant(server, 'grouped', { roles: [featureMaker], groups: [group.id] });
    expect((await createFeature(server, member.pat, 'grouped')).status).toBe(201);

    const put = await server.request('PUT', `/api/admin/projects/grouped/groups/${group.id}/roles`, {
      ...admin(server),
      body: { roles: [4] },
    });
    expect(put.status).toBe(200);
    expect(rolesOf((await access('grouped')).groups, group.id)).toEqual([4]);
    expect(await lastEvent(server, 'project-access-group-roles-updated')).toMatchObject({
      project: 'grouped',
      data: { groupId: group.id, roles: [4] },
      preData: { groupId: group.id, roles: [featureMaker] },
    });
    const asOwner = await server.request('GET', '/api/admin/projects/grouped/access', { token: member.pat });
    expect(asOwner.status).toBe(200);

    const del = await server.request(
      'DELETE',
      `/api/admin/projects/grouped/groups/${group.id}/roles`,
      admin(server),
    );
    expect(del.status).toBe(200);
    expect((await access('grouped')).groups).toEqual([]);
    expect((await createFeature(server, member.pat, 'grouped')).status).toBe(403);
    expect(await lastEvent(server, 'project-access-group-roles-deleted')).toMatchObject({
      project: 'grouped',
      preData: { groupId: group.id, roles: [4] },
    });
  });
});
