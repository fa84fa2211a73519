import { describe, expect, it } from 'vitest';
import {
  createFeature,
  createGroup,
  createProject,
  createRole,
  credentials,
  editor,
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

describe('E3 POST /api/admin/projects/:projectId/access', () => {
  it('grants every role to every user and group: 200 without body, project-access-added', async () => {
    await createProject(server, 'cross');
    const a = await createUser(server, 3);
    const b = await createUser(server, 3);
    const group = await createGroup(server, { name: 'Cross group' });
    const events = await countEvents(server, 'project-access-added');
    const res = await server.request('POST', '/api/admin/projects/cross/access', {
      ...admin(server),
      body: { roles: [5, featureMaker], users: [a.id, b.id], groups: [group.id] },
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');

    const read = await access('cross');
    expect(rolesOf(read.users, a.id)).toEqual([5, featureMaker]);
    expect(rolesOf(read.users, b.id)).toEqual([5, featureMaker]);
    expect(rolesOf(read.groups, group.id)).toEqual([5, featureMaker]);
    expect(read.users.find((u: { id: number }) => u.id === a.id)).toMatchObject({
      username: a.username,
      email: expect.any(String),
    });
    expect(read.groups[0]).toMatchObject({ name: 'Cross group' });
    expect(read.users.map((u: { id: number }) => u.id)).toEqual(
      [...read.users.map((u: { id: number }) => u.id)].sort((x, y) => x - y),
    );
    expect(JSON.stringify(read)).not.toMatch(/password|hash/i);
    // The project list counts the users holding a role there (groups are not counted).
    const projects = (await server.request('GET', '/api/admin/projects', admin(server))).body.projects;
    const cross = projects.find((p: { id: string }) => p.id === 'cross');
    expect(cross.memberCount).toBe(read.users.length);
    expect(cross.memberCount).toBeGreaterThanOrEqual(2);
    expect(projects.find((p: { id: string }) => p.id === 'default').memberCount).toBe(
      (await access('default')).users.length,
    );

    expect(await countEvents(server, 'project-access-added')).toBe(events + 1);
    const event = await lastEvent(server, 'project-access-added');
    expect(event.project).toBe('cross');
    expect(event.data).toEqual({
      roles: [
        { roleId: 5, userIds: [a.id, b.id], groupIds: [group.id] },
        { roleId: featureMaker, userIds: [a.id, b.id], groupIds: [group.id] },
      ],
    });
  });

  it('is additive and idempotent', async () => {
    await createProject(server, 'additive');
    const u = await createUser(server, 3);
    await grant(server, 'additive', { roles: [5], users: [u.id] });
    await grant(server, 'additive', { roles: [5], users: [u.id, u.id] });
    await grant(server, 'additive', { roles: [4], users: [u.id] });
    const read = await access('additive');
    expect(read.users.filter((x: { id: number }) => x.id === u.id)).toHaveLength(1);
    expect(rolesOf(read.users, u.id)).toEqual([4, 5]);
  });

  it('lists the grantable roles and only those with grants', async () => {
    const read = await access('q');
    expect(read.roles.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([4, 5, featureMaker]));
    expect(read.roles.every((r: { type: string }) => r.type === 'project' || r.type === 'custom')).toBe(true);
    expect(read.roles[0]).toEqual({
      id: 4,
      name: 'Owner',
      type: 'project',
      description: expect.any(String),
    });
    expect(read.users).toEqual([]);
    expect(read.groups).toEqual([]);
  });

  it('refuses bad bodies with 400 (before 404), then unknown projects with 404; nothing changes', async () => {
    const rootCustom = await createRole(server, { name: 'Root-ish', type: 'root-custom' });
    const group = await createGroup(server, { name: 'Valid group' });
    const before = await access('q');
    const events = await countEvents(server);
    const post = (project: string, body: unknown) =>
      server.request('POST', `/api/admin/projects/${project}/access`, { ...admin(server), body });
    const cases: unknown[] = [
      { roles: [], users: [viewer.id], groups: [] },
      { roles: [1], users: [viewer.id], groups: [] },
      { roles: [5, 2], users: [viewer.id], groups: [] },
      { roles: [3], users: [], groups: [group.id] },
      { roles: [rootCustom], users: [viewer.id], groups: [] },
      { roles: [9999], users: [viewer.id], groups: [] },
      { roles: [5], users: [99999], groups: [] },
      { roles: [5], users: [viewer.id], groups: [99999] },
      { roles: [5], groups: [] },
      { roles: [5], users: [] },
      { users: [], groups: [] },
      { roles: 5, users: [], groups: [] },
      { roles: ['5'], users: [], groups: [] },
      { roles: [5], users: [{ id: 1 }], groups: [] },
    ];
    for (const body of cases) {
      const res = await post('q', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
      expect((await post('no-such-project', body)).status, `unknown project ${JSON.stringify(body)}`).toBe(
        400,
      );
    }
    const notRole = await post('q', { roles: [1, 9999], users: [viewer.id], groups: [] });
    expect(notRole.body.message).toContain('1, 9999');
    const missing = await post('no-such-project', { roles: [5], users: [viewer.id], groups: [] });
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
    expect(await access('q')).toEqual(before);
    expect(await countEvents(server)).toBe(events);
  });

  it('is refused without credentials, to Viewers, Editors and client tokens; 415 for other bodies', async () => {
    const body = { roles: [4], users: [viewer.id, editor.id], groups: [] };
    await expectAdminOnly(server, 'POST', '/api/admin/projects/q/access', credentials, body);
    await expectAdminOnly(server, 'GET', '/api/admin/projects/q/access', credentials);
    expect((await access('q')).users).toEqual([]);
  });
});

describe('what project roles give', () => {
  it('a custom project role works in its project only, on the very next request', async () => {
    const user = await createUser(server, 3);
    expect((await createFeature(server, user.pat, 'p')).status).toBe(403);
    await grant(server, 'p', { roles: [featureMaker], users: [user.id] });
    expect((await createFeature(server, user.pat, 'p')).status).toBe(201);
    expect((await createFeature(server, user.pat, 'q')).status).toBe(403);
    expect((await createFeature(server, user.pat, 'default')).status).toBe(403);
  });

  it('environment-scoped permissions reach the holder for that environment only', async () => {
    const devOnly = await createRole(server, {
      name: 'Dev switcher',
      permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }],
    });
    const user = await createUser(server, 3);
    await grant(server, 'p', { roles: [devOnly], users: [user.id] });
    const me = await server.request('GET', '/api/admin/user', { token: user.pat });
    expect(me.body.permissions).toContainEqual({
      permission: 'UPDATE_FEATURE_ENVIRONMENT',
      project: 'p',
      environment: 'development',
    });
    expect(
      me.body.permissions.filter(
        (p: { permission: string }) => p.permission === 'UPDATE_FEATURE_ENVIRONMENT',
      ),
    ).toHaveLength(1);
  });

  it("a project's Owner manages its access; an Editor owns the projects they create", async () => {
    const made = await server.request('POST', '/api/admin/projects', {
      token: editor.pat,
      body: { id: 'editors-own', name: 'Editor owned' },
    });
    expect(made.status).toBe(201);
    const read = await server.request('GET', '/api/admin/projects/editors-own/access', { token: editor.pat });
    expect(read.status).toBe(200);
    expect(rolesOf(read.body.users, editor.id)).toEqual([4]);
    const granted = await server.request('POST', '/api/admin/projects/editors-own/access', {
      token: editor.pat,
      body: { roles: [5], users: [viewer.id], groups: [] },
    });
    expect(granted.status).toBe(200);
    expect((await createFeature(server, viewer.pat, 'editors-own')).status).toBe(201);
    expect((await createFeature(server, viewer.pat, 'default')).status).toBe(403);
    const elsewhere = await server.request('POST', '/api/admin/projects/default/access', {
      token: editor.pat,
      body: { roles: [5], users: [viewer.id], groups: [] },
    });
    expect(elsewhere.status).toBe(403);
  });

  it('the caller may only grant roles whose permissions it holds itself in the project', async () => {
    await createProject(server, 'limited');
    const accessManager = await createRole(server, {
      name: 'Access manager',
      permissions: [
        { name: 'UPDATE_PROJECT' },
        { name: 'CREATE_FEATURE' },
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
      ],
    });
    const everyEnv = await createRole(server, {
      name: 'Every env switcher',
      permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT' }],
    });
    const devEnv = await createRole(server, {
      name: 'Dev env switcher',
      permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }],
    });
    const manager = await createUser(server, 3);
    const target = await createUser(server, 3);
    await grant(server, 'limited', { roles: [accessManager], users: [manager.id] });
    const post = (roles: number[]) =>
      server.request('POST', '/api/admin/projects/limited/access', {
        token: manager.pat,
        body: { roles, users: [target.id], groups: [] },
      });
    const events = await countEvents(server);
    for (const roles of [[4], [5], [everyEnv], [featureMaker, 4]]) {
      const res = await post(roles);
      expect(res.status, JSON.stringify(roles)).toBe(403);
      expect(res.body.name).toBe('NoAccessError');
    }
    expect(await countEvents(server)).toBe(events);
    expect((await access('limited')).users.map((u: { id: number }) => u.id)).toEqual([manager.id]);
    expect((await post([featureMaker, devEnv])).status).toBe(200);
    expect(rolesOf((await access('limited')).users, target.id)).toEqual(
      [featureMaker, devEnv].sort((a, b) => a - b),
    );
    const removeOwner = await server.request(
      'DELETE',
      `/api/admin/projects/limited/users/${manager.id}/roles`,
      {
        token: manager.pat,
      },
    );
    expect(removeOwner.status).toBe(200);
  });
});
