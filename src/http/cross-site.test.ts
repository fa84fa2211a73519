import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFeature,
  createUser,
  login,
  STRONG_PASSWORD,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

// A page on another site (a sibling subdomain counts: SameSite=Lax cookies go along) posting to
// Flagpole with the signed-in user's session cookie, and what a browser says about it.
const CROSS_SITE: Record<string, string>[] = [
  { 'sec-fetch-site': 'same-site' },
  { 'sec-fetch-site': 'cross-site' },
  { origin: 'https://evil.example.com' },
  { origin: 'http://localhost:4242.evil.example.com' },
  { origin: 'null' },
];

let server: TestServer;
let editor: TestUser;
beforeAll(async () => {
  server = await startTestServer({ UNLEASH_URL: 'https://flags.example.com' });
  editor = await createUser(server, 2);
});
afterAll(() => server.close());

const ENVIRONMENT = '/api/admin/projects/default/features/csrf-target/environments/production';

async function enabledInProduction(): Promise<boolean> {
  const res = await server.request('GET', '/api/admin/projects/default/features/csrf-target', {
    token: server.adminToken,
  });
  return res.body.environments.find((e: { name: string }) => e.name === 'production').enabled;
}

function expectCrossSiteRefusal(res: { status: number; body: any }) {
  expect(res.status).toBe(403);
  expect(res.body).toEqual({
    id: expect.any(String),
    name: 'NoAccessError',
    message: expect.stringMatching(/another site.*Authorization header/),
  });
}

describe('writes authenticated by the session cookie', () => {
  beforeAll(async () => {
    await createFeature(server, 'csrf-target');
    const on = await server.request('POST', `${ENVIRONMENT}/on`, { token: server.adminToken });
    expect(on.status).toBe(200);
  });

  it('are refused with 403 when the browser says they come from another site, and change nothing', async () => {
    for (const headers of CROSS_SITE) {
      const res = await server.request('POST', `${ENVIRONMENT}/off`, { cookie: editor.cookie, headers });
      expectCrossSiteRefusal(res);
    }
    const deleted = await server.request('DELETE', '/api/admin/projects/default/features/csrf-target', {
      cookie: editor.cookie,
      headers: { 'sec-fetch-site': 'same-site' },
    });
    expectCrossSiteRefusal(deleted);
    const patched = await server.request('PATCH', '/api/admin/projects/default/features/csrf-target', {
      cookie: editor.cookie,
      headers: { origin: 'https://evil.example.com' },
      body: [{ op: 'replace', path: '/description', value: 'pwned' }],
    });
    expectCrossSiteRefusal(patched);
    expect(await enabledInProduction()).toBe(true);
    const feature = await server.request('GET', '/api/admin/projects/default/features/csrf-target', {
      token: server.adminToken,
    });
    expect(feature.status).toBe(200);
    expect(feature.body.description).not.toBe('pwned');
  });

  it('are accepted from this server’s own pages, from its public URL, and without either header', async () => {
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost' },
      { 'sec-fetch-site': 'none' },
      { origin: 'https://flags.example.com' },
      { origin: 'http://flagpole.internal:8080', host: 'flagpole.internal:8080' },
      {},
    ];
    for (const headers of cases) {
      const off = await server.request('POST', `${ENVIRONMENT}/off`, { cookie: editor.cookie, headers });
      expect(off.status, JSON.stringify(headers)).toBe(200);
      const on = await server.request('POST', `${ENVIRONMENT}/on`, { cookie: editor.cookie, headers });
      expect(on.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('leave reads alone: a cross-site GET with the cookie is answered', async () => {
    const res = await server.request('GET', '/api/admin/user', {
      cookie: editor.cookie,
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example.com' },
    });
    expect(res.status).toBe(200);
  });
});

describe('writes authenticated by a token', () => {
  it('are not checked: the Authorization header is no ambient credential', async () => {
    for (const token of [server.adminToken, editor.pat]) {
      for (const headers of CROSS_SITE) {
        const res = await server.request('POST', `${ENVIRONMENT}/off`, { token, headers });
        expect(res.status).toBe(200);
      }
    }
  });
});

describe('sign-in and sign-out', () => {
  it('refuse a cross-site login (login CSRF) and set no cookie', async () => {
    for (const headers of CROSS_SITE) {
      const res = await server.request('POST', '/auth/simple/login', {
        body: { username: editor.username, password: STRONG_PASSWORD },
        headers,
      });
      expectCrossSiteRefusal(res);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const same = await server.request('POST', '/auth/simple/login', {
      body: { username: editor.username, password: STRONG_PASSWORD },
      headers: { 'sec-fetch-site': 'same-origin', origin: 'https://flags.example.com' },
    });
    expect(same.status).toBe(200);
  });

  it('refuse a cross-site logout, which leaves the session working', async () => {
    const session = await login(server, editor.username, STRONG_PASSWORD);
    const res = await server.request('POST', '/logout', {
      cookie: session.cookie,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expectCrossSiteRefusal(res);
    expect((await server.request('GET', '/api/admin/user', { cookie: session.cookie })).status).toBe(200);
    const own = await server.request('POST', '/logout', {
      cookie: session.cookie,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(own.status).toBe(200);
    expect((await server.request('GET', '/api/admin/user', { cookie: session.cookie })).status).toBe(401);
  });
});
