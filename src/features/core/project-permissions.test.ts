import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFeature,
  createProject,
  expectRefused,
  grantRole,
  readFeature,
} from '../../../test/features.js';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../../test/server.js';

let server: TestServer;
let member: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  await createProject(server, 'alpha');
  await createProject(server, 'beta');
  member = await createUser(server, 3);
  await grantRole(server, member.id, 'alpha');
  await createFeature(server, 'b-flag', 'beta');
});
afterAll(() => server.close());

const as = (method: string, url: string, body?: unknown) =>
  server.request(method, url, { token: member.pat, body });
const betaState = async () => ({
  list: (await server.request('GET', '/api/admin/projects/beta/features', { token: server.adminToken })).body,
  flag: (await readFeature(server, 'b-flag', 'beta')).body,
  archive: (await server.request('GET', '/api/admin/archive/features/beta', { token: server.adminToken }))
    .body,
});

describe('a Viewer granted Member in project alpha', () => {
  it('creates, changes, marks stale, archives and revives alpha’s features', async () => {
    expect((await as('POST', '/api/admin/projects/alpha/features', { name: 'a-flag' })).status).toBe(201);
    expect(
      (await as('PUT', '/api/admin/projects/alpha/features/a-flag', { description: 'by member' })).status,
    ).toBe(200);
    const patched = await as('PATCH', '/api/admin/projects/alpha/features/a-flag', [
      { op: 'replace', path: '/type', value: 'experiment' },
    ]);
    expect(patched.status).toBe(200);
    expect(patched.body.type).toBe('experiment');
    expect(
      (await as('POST', '/api/admin/projects/alpha/stale', { features: ['a-flag'], stale: true })).status,
    ).toBe(202);
    expect((await as('POST', '/api/admin/projects/alpha/archive', { features: ['a-flag'] })).status).toBe(
      202,
    );
    expect((await as('POST', '/api/admin/projects/alpha/revive', { features: ['a-flag'] })).status).toBe(200);
    expect((await as('DELETE', '/api/admin/projects/alpha/features/a-flag')).status).toBe(202);
    expect((await as('DELETE', '/api/admin/archive/a-flag')).status).toBe(200);
    expect((await readFeature(server, 'a-flag', 'alpha')).status).toBe(404);
  });

  it('gets 403 for every change in project beta, which stays as it was', async () => {
    const attempts: [string, string, unknown?][] = [
      ['POST', '/api/admin/projects/beta/features', { name: 'intruder' }],
      ['PUT', '/api/admin/projects/beta/features/b-flag', { description: 'by member' }],
      ['PATCH', '/api/admin/projects/beta/features/b-flag', [{ op: 'replace', path: '/stale', value: true }]],
      ['POST', '/api/admin/projects/beta/stale', { features: ['b-flag'], stale: true }],
      ['POST', '/api/admin/projects/beta/archive', { features: ['b-flag'] }],
      ['DELETE', '/api/admin/projects/beta/features/b-flag'],
      ['POST', '/api/admin/projects/beta/revive', { features: ['b-flag'] }],
      ['POST', '/api/admin/projects/beta/delete', { features: ['b-flag'] }],
      ['POST', '/api/admin/projects/beta/features/b-flag/changeProject', { newProjectId: 'alpha' }],
      ['POST', '/api/admin/features/b-flag/tags', { value: 'by member' }],
      ['POST', '/api/admin/archive/revive/b-flag'],
      ['DELETE', '/api/admin/archive/b-flag'],
    ];
    for (const [method, url, body] of attempts) {
      await expectRefused(server, 403, () => as(method, url, body), betaState, `${method} ${url}`);
    }
  });

  it('cannot change the project itself, which needs Owner', async () => {
    const read = async () =>
      (await server.request('GET', '/api/admin/projects/alpha', { token: server.adminToken })).body;
    await expectRefused(server, 403, () => as('PUT', '/api/admin/projects/alpha', { name: 'Renamed' }), read);
    await expectRefused(server, 403, () => as('DELETE', '/api/admin/projects/alpha'), read);
    await expectRefused(
      server,
      403,
      () => as('DELETE', '/api/admin/projects/alpha/environments/development'),
      read,
    );
  });

  it('gets 403 on a feature-named path whose feature does not exist, where an Admin gets 404', async () => {
    const read = async () =>
      (await server.request('GET', '/api/admin/tags', { token: server.adminToken })).body;
    await expectRefused(
      server,
      403,
      () => as('POST', '/api/admin/features/ghost/tags', { value: 'boo' }),
      read,
    );
    const admin = await server.request('POST', '/api/admin/features/ghost/tags', {
      token: server.adminToken,
      body: { value: 'boo' },
    });
    expect(admin.status).toBe(404);
  });
});
