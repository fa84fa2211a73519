import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, startAccessServer } from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, type TestServer } from '../../test/server.js';

let server: TestServer;

beforeAll(async () => {
  ({ server } = await startAccessServer());
});
afterAll(() => server.close());

describe('custom root roles govern what their holders may do', () => {
  it('a user created with a custom root role holds exactly its permissions, changed by E4 at once', async () => {
    const id = await createRole(server, {
      name: 'Project maker',
      type: 'root-custom',
      permissions: [{ name: 'CREATE_PROJECT' }],
    });
    const maker = await createUser(server, id);
    const read = await server.request('GET', `/api/admin/user-admin/${maker.id}`, admin(server));
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
      ...admin(server),
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
      ...admin(server),
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
