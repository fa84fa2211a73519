import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Credentials, expectAdminOnly, lastEvent, startAccessServer } from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, login, type TestServer, type TestUser } from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let credentials: Credentials;

beforeAll(async () => {
  ({ server, viewer, credentials } = await startAccessServer());
});
afterAll(() => server.close());

const URL_PATH = '/api/admin/auth/oidc/settings';
const SECRET = 'oidc-client-secret-4f1c9a';

const full = {
  enabled: true,
  discoverUrl: 'https://login.example.com/.well-known/openid-configuration',
  clientId: 'flagpole',
  secret: SECRET,
  autoCreate: true,
  enableSingleSignOut: false,
  defaultRootRole: 'Editor',
  emailDomains: 'example.com,example.org',
  acrValues: 'urn:mace:incommon:iap:silver',
  idTokenSigningAlgorithm: 'RS384',
};

describe('E6 OIDC settings', () => {
  it('answers { enabled: false } before anything is stored', async () => {
    const res = await server.request('GET', URL_PATH, admin(server));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false });
  });

  it('E6 stores and echoes every field sent; GET returns the same; setting-updated without the secret', async () => {
    const events = await countEvents(server, 'setting-updated');
    const res = await server.request('POST', URL_PATH, { ...admin(server), body: full });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(full);
    expect((await server.request('GET', URL_PATH, admin(server))).body).toEqual(full);
    expect(await countEvents(server, 'setting-updated')).toBe(events + 1);
    const event = await lastEvent(server, 'setting-updated');
    expect(event.data).toMatchObject({ clientId: 'flagpole', enabled: true });
    expect(JSON.stringify(event)).not.toContain(SECRET);
  });

  it('replaces the whole record on each POST', async () => {
    await server.request('POST', URL_PATH, { ...admin(server), body: full });
    const small = { clientId: 'other', secret: 'another-secret-77' };
    const res = await server.request('POST', URL_PATH, {
      ...admin(server),
      body: { ...small, unknownField: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(small);
    expect((await server.request('GET', URL_PATH, admin(server))).body).toEqual(small);
    const event = await lastEvent(server, 'setting-updated');
    expect(JSON.stringify(event)).not.toContain(SECRET);
    expect(JSON.stringify(event)).not.toContain('another-secret-77');
    expect(event.preData).toMatchObject({ clientId: 'flagpole' });
  });

  it('refuses bad bodies with 400, storing nothing', async () => {
    await server.request('POST', URL_PATH, { ...admin(server), body: full });
    const events = await countEvents(server);
    const cases: unknown[] = [
      { secret: 's' },
      { clientId: 'c' },
      { clientId: 5, secret: 's' },
      { clientId: 'c', secret: ['s'] },
      { clientId: 'c', secret: 's', enabled: 'true' },
      { clientId: 'c', secret: 's', autoCreate: 1 },
      { clientId: 'c', secret: 's', defaultRootRole: 'Owner' },
      { clientId: 'c', secret: 's', defaultRootRole: 'viewer' },
      { clientId: 'c', secret: 's', idTokenSigningAlgorithm: 'HS256' },
      { clientId: 'c', secret: 's', discoverUrl: 'not a url' },
      { clientId: 'c', secret: 's', discoverUrl: 'ftp://login.example.com/' },
      { clientId: 'c', secret: 's', discoverUrl: '' },
      { clientId: 'c', secret: 's', emailDomains: ['a'] },
    ];
    for (const body of cases) {
      const res = await server.request('POST', URL_PATH, { ...admin(server), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    expect(await countEvents(server)).toBe(events);
    expect((await server.request('GET', URL_PATH, admin(server))).body).toEqual(full);
  });

  it('is for Admins only: nobody else reads the secret; 415 for other bodies', async () => {
    await server.request('POST', URL_PATH, { ...admin(server), body: full });
    await expectAdminOnly(server, 'GET', URL_PATH, credentials);
    await expectAdminOnly(server, 'POST', URL_PATH, credentials, { clientId: 'evil', secret: 'x' });
    for (const token of Object.values(credentials)) {
      const res = await server.request('GET', URL_PATH, { token });
      expect(res.text).not.toContain(SECRET);
    }
    const adminUser = await createUser(server, 1);
    expect((await server.request('GET', URL_PATH, { token: adminUser.pat })).body.secret).toBe(SECRET);
  });

  it('does not change how anyone signs in', async () => {
    await server.request('POST', URL_PATH, { ...admin(server), body: { ...full, enabled: false } });
    expect((await login(server, viewer.username, viewer.password)).status).toBe(200);
    expect((await server.request('GET', '/api/admin/user', { token: viewer.pat })).status).toBe(200);
  });
});
