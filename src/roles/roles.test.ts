import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Credentials,
  createRole,
  expectAdminOnly,
  lastEvent,
  startAccessServer,
} from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, type TestServer, type TestUser } from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let credentials: Credentials;

beforeAll(async () => {
  ({ server, viewer, credentials } = await startAccessServer());
});
afterAll(() => server.close());

async function roleNames(): Promise<string[]> {
  const res = await server.request('GET', '/api/admin/roles', admin(server));
  return res.body.roles.map((r: { name: string }) => r.name);
}

describe('reading roles and permissions', () => {
  it('lists the built-in roles with their types', async () => {
    const res = await server.request('GET', '/api/admin/roles', admin(server));
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
    const adminRole = await server.request('GET', '/api/admin/roles/1', admin(server));
    expect(adminRole.status).toBe(200);
    expect(adminRole.body).toMatchObject({
      id: 1,
      name: 'Admin',
      type: 'root',
      permissions: [{ name: 'ADMIN' }],
    });
    const member = await server.request('GET', '/api/admin/roles/5', admin(server));
    const names = member.body.permissions.map((p: { name: string }) => p.name);
    expect(names).toContain('CREATE_FEATURE');
    expect(names).not.toContain('MOVE_FEATURE_TOGGLE');
    expect((await server.request('GET', '/api/admin/roles/9999', admin(server))).status).toBe(404);
    const bad = await server.request('GET', '/api/admin/roles/abc', admin(server));
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
  });

  it('lists every permission: instance-wide, per project, per environment', async () => {
    const res = await server.request('GET', '/api/admin/permissions', admin(server));
    expect(res.status).toBe(200);
    const { root, project, environments } = res.body.permissions;
    const names = (list: { name: string }[]) => list.map((p) => p.name);
    expect(names(root)).toEqual(expect.arrayContaining(['ADMIN', 'CREATE_PROJECT', 'CREATE_ROLE']));
    expect(names(project)).toEqual(
      expect.arrayContaining([
        'CREATE_FEATURE',
        'MOVE_FEATURE_TOGGLE',
        'UPDATE_FEATURE_DEPENDENCY',
        'PROJECT_CHANGE_REQUEST_WRITE',
        'UPDATE_PROJECT_RELEASE_TEMPLATE',
      ]),
    );
    expect(environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
    expect(names(environments[0].permissions)).toEqual(
      expect.arrayContaining([
        'CREATE_FEATURE_STRATEGY',
        'UPDATE_FEATURE_ENVIRONMENT',
        'SKIP_CHANGE_REQUEST',
      ]),
    );
    const all = [...names(root), ...names(project), ...names(environments[0].permissions)];
    expect(all).toHaveLength(49);
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
      ...admin(server),
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
    const read = await server.request('GET', `/api/admin/roles/${res.body.roles.id}`, admin(server));
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
      ...admin(server),
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
    const read = await server.request('GET', `/api/admin/roles/${res.body.roles.id}`, admin(server));
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
      const res = await server.request('POST', '/api/admin/roles', { ...admin(server), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    const unknown = await server.request('POST', '/api/admin/roles', {
      ...admin(server),
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
      const res = await server.request('POST', '/api/admin/roles', { ...admin(server), body: { name } });
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
