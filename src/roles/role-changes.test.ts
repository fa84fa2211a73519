import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Credentials,
  createGroup,
  createRole,
  expectAdminOnly,
  lastEvent,
  startAccessServer,
} from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, type TestServer } from '../../test/server.js';

let server: TestServer;
let credentials: Credentials;

beforeAll(async () => {
  ({ server, credentials } = await startAccessServer());
});
afterAll(() => server.close());

describe('E4 PUT /api/admin/roles/:roleId', () => {
  it('replaces name, description and permissions; GET shows them at once; role-updated with both sides', async () => {
    const id = await createRole(server, {
      name: 'Tagger',
      type: 'root-custom',
      permissions: [{ name: 'CREATE_TAG_TYPE' }],
    });
    const res = await server.request('PUT', `/api/admin/roles/${id}`, {
      ...admin(server),
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
    const read = await server.request('GET', `/api/admin/roles/${id}`, admin(server));
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
      ...admin(server),
      body: { name: 'Keeper', description: 'still here' },
    });
    expect(res.status).toBe(200);
    expect(res.body.roles).toMatchObject({ type: 'custom', description: 'still here' });
    const read = await server.request('GET', `/api/admin/roles/${id}`, admin(server));
    expect(read.body.permissions).toEqual([
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
    ]);
    const emptied = await server.request('PUT', `/api/admin/roles/${id}`, {
      ...admin(server),
      body: { name: 'Keeper', permissions: [] },
    });
    expect(emptied.status).toBe(200);
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin(server))).body.permissions).toEqual(
      [],
    );
  });

  it('takes back what GET answered: a read role sent as it is keeps its permissions', async () => {
    const id = await createRole(server, {
      name: 'Round trip role',
      description: 'as read',
      permissions: [
        { name: 'CREATE_FEATURE' },
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
      ],
    });
    const read = await server.request('GET', `/api/admin/roles/${id}`, admin(server));
    const res = await server.request('PUT', `/api/admin/roles/${id}`, { ...admin(server), body: read.body });
    expect(res.status).toBe(200);
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin(server))).body).toEqual(read.body);
  });

  it('checks in order: body 400, unknown 404, built-in 403, taken name 409; nothing changes', async () => {
    const id = await createRole(server, { name: 'Ordered' });
    await createRole(server, { name: 'Taken' });
    const events = await countEvents(server);
    const put = (roleId: number | string, body: unknown) =>
      server.request('PUT', `/api/admin/roles/${roleId}`, { ...admin(server), body });

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
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin(server))).body.name).toBe('Ordered');
    expect((await server.request('GET', '/api/admin/roles/1', admin(server))).body.name).toBe('Admin');
  });

  it('is refused without credentials, to Viewers, Editors and client tokens; 415 for other bodies', async () => {
    const id = await createRole(server, { name: 'Guarded' });
    await expectAdminOnly(server, 'PUT', `/api/admin/roles/${id}`, credentials, { name: 'Hijacked' });
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin(server))).body.name).toBe('Guarded');
  });

  it('changes the type of a role nobody holds; refuses (409) while someone does', async () => {
    const id = await createRole(server, { name: 'Shape shifter', permissions: [{ name: 'UPDATE_FEATURE' }] });
    const toRoot = await server.request('PUT', `/api/admin/roles/${id}`, {
      ...admin(server),
      body: { name: 'Shape shifter', type: 'root-custom' },
    });
    expect(toRoot.status).toBe(200);
    expect(toRoot.body.roles.type).toBe('root-custom');
    await createUser(server, id);
    const back = await server.request('PUT', `/api/admin/roles/${id}`, {
      ...admin(server),
      body: { name: 'Shape shifter', type: 'custom' },
    });
    expect(back.status).toBe(409);
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin(server))).body.type).toBe(
      'root-custom',
    );
  });
});

describe('DELETE /api/admin/roles/:id', () => {
  it('deletes a custom role nobody holds, with role-deleted', async () => {
    const id = await createRole(server, { name: 'Short lived', permissions: [{ name: 'UPDATE_FEATURE' }] });
    const res = await server.request('DELETE', `/api/admin/roles/${id}`, admin(server));
    expect(res.status).toBe(200);
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin(server))).status).toBe(404);
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
      expect((await server.request('DELETE', `/api/admin/roles/${id}`, admin(server))).status).toBe(403);
    }
    expect(await countEvents(server)).toBe(events);
    const byUser = await createRole(server, { name: 'Held by a user', type: 'root-custom' });
    await createUser(server, byUser);
    const byGroup = await createRole(server, { name: 'Held by a group', type: 'root-custom' });
    await createGroup(server, { name: 'holders', rootRole: byGroup });
    const afterSetup = await countEvents(server);
    for (const id of [byUser, byGroup]) {
      const res = await server.request('DELETE', `/api/admin/roles/${id}`, admin(server));
      expect(res.status).toBe(409);
      expect(res.body.message).toContain('hold it');
      expect((await server.request('GET', `/api/admin/roles/${id}`, admin(server))).status).toBe(200);
    }
    expect((await server.request('DELETE', '/api/admin/roles/9999', admin(server))).status).toBe(404);
    expect((await server.request('DELETE', '/api/admin/roles/x', admin(server))).status).toBe(400);
    expect(await countEvents(server)).toBe(afterSetup);
  });

  it('is refused without credentials, to Viewers, Editors and client tokens', async () => {
    const id = await createRole(server, { name: 'Undeletable by others' });
    await expectAdminOnly(server, 'DELETE', `/api/admin/roles/${id}`, credentials);
    expect((await server.request('GET', `/api/admin/roles/${id}`, admin(server))).status).toBe(200);
  });
});
