import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Credentials, expectAdminOnly, lastEvent, startAccessServer } from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, type TestServer } from '../../test/server.js';
import { createSignupToken } from '../../test/signup.js';
import { inDays } from '../../test/time.js';
import { oneMonthAfter } from './expiry.js';

let server: TestServer;
let credentials: Credentials;

beforeAll(async () => {
  ({ server, credentials } = await startAccessServer({ UNLEASH_URL: 'https://flags.example.com/' }));
});
afterAll(() => server.close());

describe('E2 POST /api/admin/invite-link/tokens', () => {
  it('creates an invite link: 201 with secret, url, Viewer role, no users; public-signup-token-created', async () => {
    const events = await countEvents(server, 'public-signup-token-created');
    const expiresAt = inDays(7);
    const res = await server.request('POST', '/api/admin/invite-link/tokens', {
      ...admin(server),
      body: { name: 'Team invite', expiresAt },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      secret: expect.stringMatching(/^[0-9a-f]{32}$/),
      url: `https://flags.example.com/new-user?invite=${res.body.secret}`,
      name: 'Team invite',
      enabled: true,
      expiresAt,
      createdAt: expect.any(String),
      createdBy: expect.any(String),
      role: { id: 3, name: 'Viewer', type: 'root' },
      users: [],
    });
    expect(res.headers.location).toBe(`tokens/${res.body.secret}`);
    expect(await countEvents(server, 'public-signup-token-created')).toBe(events + 1);
    const event = await lastEvent(server, 'public-signup-token-created');
    expect(event.data).toMatchObject({ name: 'Team invite', enabled: true });
    expect(JSON.stringify(event)).not.toContain(res.body.secret);
  });

  it('records who made it: the username of a user', async () => {
    const adminUser = await createUser(server, 1);
    const res = await server.request('POST', '/api/admin/invite-link/tokens', {
      token: adminUser.pat,
      body: { name: 'By a user', expiresAt: inDays(1) },
    });
    expect(res.status).toBe(201);
    expect(res.body.createdBy).toBe(adminUser.username);
  });

  it('cuts an expiry later than one month to one month from now', async () => {
    const before = Date.now();
    const token = await createSignupToken(server, 'Far future', inDays(365));
    const after = Date.now();
    const expires = new Date(token.expiresAt).getTime();
    expect(expires).toBeGreaterThanOrEqual(oneMonthAfter(new Date(before)).getTime());
    expect(expires).toBeLessThanOrEqual(oneMonthAfter(new Date(after)).getTime());
  });

  it('accepts a past expiry: the token is disabled from the start, everywhere it is shown', async () => {
    const token = await createSignupToken(server, 'Already expired', '2020-01-01T00:00:00.000Z');
    expect(token.enabled).toBe(false);
    const one = await server.request('GET', `/api/admin/invite-link/tokens/${token.secret}`, admin(server));
    expect(one.body.enabled).toBe(false);
    const list = await server.request('GET', '/api/admin/invite-link/tokens', admin(server));
    expect(list.body.tokens.find((t: { secret: string }) => t.secret === token.secret).enabled).toBe(false);
    expect((await server.request('GET', `/invite/${token.secret}/validate`)).status).toBe(400);
  });

  it('refuses bad bodies with 400, creating nothing', async () => {
    const before = (await server.request('GET', '/api/admin/invite-link/tokens', admin(server))).body.tokens
      .length;
    const events = await countEvents(server);
    for (const body of [
      {},
      { name: 'x' },
      { expiresAt: inDays(1) },
      { name: 'x', expiresAt: 'tomorrow' },
      { name: 'x', expiresAt: 12 },
      { name: 3, expiresAt: inDays(1) },
      { name: 'x', expiresAt: inDays(1), role: 1 },
    ]) {
      const res = await server.request('POST', '/api/admin/invite-link/tokens', { ...admin(server), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    expect(
      (await server.request('GET', '/api/admin/invite-link/tokens', admin(server))).body.tokens,
    ).toHaveLength(before);
    expect(await countEvents(server)).toBe(events);
  });

  it('is for Admins only, like every invite-link path; 415 for other bodies', async () => {
    const token = await createSignupToken(server, 'Admins only');
    await expectAdminOnly(server, 'POST', '/api/admin/invite-link/tokens', credentials, {
      name: 'x',
      expiresAt: inDays(1),
    });
    await expectAdminOnly(server, 'GET', '/api/admin/invite-link/tokens', credentials);
    await expectAdminOnly(server, 'GET', `/api/admin/invite-link/tokens/${token.secret}`, credentials);
    await expectAdminOnly(server, 'PUT', `/api/admin/invite-link/tokens/${token.secret}`, credentials, {
      enabled: false,
    });
    expect((await server.request('GET', `/invite/${token.secret}/validate`)).status).toBe(200);
  });
});

describe('reading and updating invite links', () => {
  it('lists the tokens newest first and answers 404 for an unknown secret', async () => {
    const older = await createSignupToken(server, 'Older');
    const newer = await createSignupToken(server, 'Newer');
    const list = await server.request('GET', '/api/admin/invite-link/tokens', admin(server));
    expect(list.status).toBe(200);
    const secrets = list.body.tokens.map((t: { secret: string }) => t.secret);
    expect(secrets.indexOf(newer.secret)).toBeLessThan(secrets.indexOf(older.secret));
    const missing = await server.request('GET', '/api/admin/invite-link/tokens/nope', admin(server));
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
  });

  it('changes enabled and expiresAt, with public-signup-token-updated', async () => {
    const token = await createSignupToken(server, 'Switchable');
    const off = await server.request('PUT', `/api/admin/invite-link/tokens/${token.secret}`, {
      ...admin(server),
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ secret: token.secret, enabled: false, expiresAt: token.expiresAt });
    expect((await server.request('GET', `/invite/${token.secret}/validate`)).status).toBe(400);
    const event = await lastEvent(server, 'public-signup-token-updated');
    expect(event.preData.enabled).toBe(true);
    expect(event.data.enabled).toBe(false);
    expect(JSON.stringify(event)).not.toContain(token.secret);

    const newExpiry = inDays(3);
    const on = await server.request('PUT', `/api/admin/invite-link/tokens/${token.secret}`, {
      ...admin(server),
      body: { enabled: true, expiresAt: newExpiry },
    });
    expect(on.body).toMatchObject({ enabled: true, expiresAt: newExpiry });
    expect((await server.request('GET', `/invite/${token.secret}/validate`)).status).toBe(200);

    const expire = await server.request('PUT', `/api/admin/invite-link/tokens/${token.secret}`, {
      ...admin(server),
      body: { expiresAt: '2021-01-01T00:00:00.000Z' },
    });
    expect(expire.body.enabled).toBe(false);
  });

  it('refuses an empty or bad update (400) and unknown secrets (404), changing nothing', async () => {
    const token = await createSignupToken(server, 'Unchanged');
    const events = await countEvents(server);
    const put = (secret: string, body: unknown) =>
      server.request('PUT', `/api/admin/invite-link/tokens/${secret}`, { ...admin(server), body });
    for (const body of [{}, { enabled: 'no' }, { expiresAt: 'soon' }, { name: 'renamed' }]) {
      expect((await put(token.secret, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await put('nope', { enabled: false })).status).toBe(404);
    expect(await countEvents(server)).toBe(events);
    const read = await server.request('GET', `/api/admin/invite-link/tokens/${token.secret}`, admin(server));
    expect(read.body).toMatchObject({ enabled: true, expiresAt: token.expiresAt, name: 'Unchanged' });
  });
});
