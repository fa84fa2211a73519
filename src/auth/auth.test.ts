import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countEvents,
  createUser,
  login,
  STRONG_PASSWORD,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /auth/session', () => {
  it('answers 200 either way: signed in with a live session cookie, else the ways to sign in', async () => {
    const out = await server.request('GET', '/auth/session');
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ signedIn: false, defaultHidden: false, options: [] });
    const stale = await server.request('GET', '/auth/session', { cookie: 'unleash-session=not-a-session' });
    expect(stale.body).toEqual({ signedIn: false, defaultHidden: false, options: [] });

    const user = await createUser(server, 3);
    const signedIn = await login(server, user.username, STRONG_PASSWORD);
    const res = await server.request('GET', '/auth/session', { cookie: signedIn.cookie });
    expect(res.status).toBe(200);
    // The user as /api/admin/user describes them, so the UI needs one answer before its first screen.
    const me = await server.request('GET', '/api/admin/user', { cookie: signedIn.cookie });
    expect(res.body).toEqual({ signedIn: true, me: me.body });
    expect(res.body.me.user).toMatchObject({ id: user.id, username: user.username });
  });
});

describe('POST /auth/simple/login', () => {
  it('signs in with the username or the email and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const user = await createUser(server, 3);
    for (const name of [user.username, `${user.username}@example.com`, user.username.toUpperCase()]) {
      const res = await login(server, name, STRONG_PASSWORD);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.id, username: user.username });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^unleash-session=[^;]+;/);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      const me = await server.request('GET', '/api/admin/user', { cookie: res.cookie });
      expect(me.status).toBe(200);
      expect(me.body.user.id).toBe(user.id);
    }
  });

  it('answers 401 for a wrong password or an unknown user, and sets no cookie', async () => {
    const user = await createUser(server, 3);
    for (const [username, password] of [
      [user.username, 'Wrong-Password-1'],
      ['nobody-here', STRONG_PASSWORD],
    ]) {
      const res = await login(server, username!, password!);
      expect(res.status).toBe(401);
      expect(res.body.name).toBe('AuthenticationRequired');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const read = await server.request('GET', `/api/admin/user-admin/${user.id}`, {
      token: server.adminToken,
    });
    expect(read.body.loginAttempts).toBe(1);
  });

  it('answers 400 for a missing field and 415 for a non-JSON body', async () => {
    expect((await server.request('POST', '/auth/simple/login', { body: { username: 'admin' } })).status).toBe(
      400,
    );
    const res = await server.request('POST', '/auth/simple/login', {
      body: 'admin',
      contentType: 'text/plain',
    });
    expect(res.status).toBe(415);
  });

  it('refuses further attempts after 10 failures for one user and address, but not from elsewhere', async () => {
    const user = await createUser(server, 3);
    const from = (remoteAddress: string, password: string) =>
      server.request('POST', '/auth/simple/login', {
        body: { username: user.username, password },
        remoteAddress,
      });
    for (let i = 0; i < 10; i++) expect((await from('10.0.0.1', 'Wrong-Password-1')).status).toBe(401);
    const blocked = await from('10.0.0.1', STRONG_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.name).toBe('RateLimitError');
    expect((await from('10.0.0.2', STRONG_PASSWORD)).status).toBe(200);
  });

  it('answers 429 with the error body and a Retry-After header', async () => {
    const user = await createUser(server, 3);
    const attempt = (password: string) =>
      server.request('POST', '/auth/simple/login', {
        body: { username: user.username, password },
        remoteAddress: '10.0.1.1',
      });
    for (let i = 0; i < 10; i++) expect((await attempt('Wrong-Password-1')).status).toBe(401);
    const blocked = await attempt(STRONG_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      id: expect.any(String),
      name: 'RateLimitError',
      message: expect.stringMatching(/Too many failed logins.*try again in \d+ seconds/i),
    });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('counts failures per user whatever the address: after 50 from many addresses, every address waits', async () => {
    const user = await createUser(server, 3);
    const bystander = await createUser(server, 3);
    const from = (remoteAddress: string, username: string, password: string) =>
      server.request('POST', '/auth/simple/login', { body: { username, password }, remoteAddress });
    for (let i = 0; i < 50; i++) {
      // Five tries from each of ten addresses: no address reaches its own limit of ten.
      expect((await from(`10.0.2.${i % 10}`, user.username, 'Wrong-Password-1')).status).toBe(401);
    }
    const blocked = await from('10.0.3.1', user.username, STRONG_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.name).toBe('RateLimitError');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Its email is the same user.
    expect((await from('10.0.3.2', `${user.username}@example.com`, STRONG_PASSWORD)).status).toBe(429);
    // Other users sign in from those addresses as before.
    expect((await from('10.0.2.1', bystander.username, STRONG_PASSWORD)).status).toBe(200);
  });
});

describe('login limits behind a reverse proxy', () => {
  const wrong = (
    proxied: TestServer,
    username: string,
    forwardedFor: string,
    remoteAddress = '192.168.0.10',
  ) =>
    proxied.request('POST', '/auth/simple/login', {
      body: { username, password: 'Wrong-Password-1' },
      headers: { 'x-forwarded-for': forwardedFor },
      remoteAddress,
    });

  it('TRUST_PROXY=true trusts one hop: a client cannot choose its address by sending X-Forwarded-For', async () => {
    const proxied = await startTestServer({ TRUST_PROXY: 'true' });
    try {
      const user = await createUser(proxied, 3);
      // The proxy appends the address it saw (203.0.113.7) after whatever the client sent.
      for (let i = 0; i < 10; i++) {
        expect((await wrong(proxied, user.username, `198.51.100.${i}, 203.0.113.7`)).status).toBe(401);
      }
      const blocked = await wrong(proxied, user.username, '198.51.100.99, 203.0.113.7');
      expect(blocked.status).toBe(429);
      expect(blocked.body.name).toBe('RateLimitError');
      // Another client behind the same proxy is another address.
      expect((await wrong(proxied, user.username, '203.0.113.8')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('TRUST_PROXY with addresses trusts only those proxies', async () => {
    const proxied = await startTestServer({ TRUST_PROXY: '192.168.0.0/24, 10.9.9.9' });
    try {
      const user = await createUser(proxied, 3);
      // Two trusted proxies in a row: the client is the address the outer one saw.
      for (let i = 0; i < 10; i++) {
        expect((await wrong(proxied, user.username, `198.51.100.${i}, 203.0.113.9, 10.9.9.9`)).status).toBe(
          401,
        );
      }
      expect((await wrong(proxied, user.username, '203.0.113.9, 10.9.9.9')).status).toBe(429);
      // Another client through the same two proxies is another address.
      expect((await wrong(proxied, user.username, '203.0.113.10, 10.9.9.9')).status).toBe(401);
      // From an address that is no trusted proxy, X-Forwarded-For is ignored: its own limit.
      expect((await wrong(proxied, user.username, '203.0.113.9', '172.16.0.5')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});

describe('POST /logout', () => {
  it('ends the session', async () => {
    const user = await createUser(server, 3);
    const res = await server.request('POST', '/logout', { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(String(res.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await server.request('GET', '/api/admin/user', { cookie: user.cookie })).status).toBe(401);
  });
});

async function resetLink(email: string): Promise<string> {
  const res = await server.request('POST', '/api/admin/user-admin/reset-password', {
    token: server.adminToken,
    body: { id: email },
  });
  expect(res.status).toBe(200);
  const url = new URL(res.body.resetPasswordUrl);
  expect(url.origin + url.pathname).toBe('http://localhost:4242/reset-password');
  return url.searchParams.get('token')!;
}

const resetPassword = (token: string, password: string, extra: object = {}) =>
  server.request('POST', '/auth/reset/password', { body: { token, password }, ...extra });

describe('reset links', () => {
  it('are for Admins; an unknown email is a 404', async () => {
    const editor = await createUser(server, 2);
    const denied = await server.request('POST', '/api/admin/user-admin/reset-password', {
      token: editor.pat,
      body: { id: `${editor.username}@example.com` },
    });
    expect(denied.status).toBe(403);
    const unknown = await server.request('POST', '/api/admin/user-admin/reset-password', {
      token: server.adminToken,
      body: { id: 'nobody@example.com' },
    });
    expect(unknown.status).toBe(404);
  });

  it('validate to the user while usable', async () => {
    const user = await createUser(server, 3);
    const token = await resetLink(`${user.username}@example.com`);
    const res = await server.request('GET', `/auth/reset/validate?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      email: `${user.username}@example.com`,
      token,
      createdBy: 'admin',
      role: { id: 3, name: 'Viewer', type: 'root' },
    });
    expect((await server.request('GET', '/auth/reset/validate?token=never-issued')).status).toBe(401);
  });
});

describe('E14 POST /auth/reset/password', () => {
  let user: TestUser;
  let token: string;

  beforeAll(async () => {
    user = await createUser(server, 3);
    token = await resetLink(`${user.username}@example.com`);
  });

  it('checks the content type first, then the body', async () => {
    expect((await resetPassword(token, 'x', { body: 'plain', contentType: 'text/plain' })).status).toBe(415);
    expect((await server.request('POST', '/auth/reset/password', { body: { token } })).status).toBe(400);
    expect(
      (
        await server.request('POST', '/auth/reset/password', {
          body: { token, password: 'Good-Pass-123', x: 1 },
        })
      ).status,
    ).toBe(400);
  });

  it('refuses weak passwords with 400 naming the rule, before looking at the token', async () => {
    const weak = await resetPassword(token, 'weakpass');
    expect(weak.status).toBe(400);
    expect(weak.body.name).toBe('ValidationError');
    expect(weak.body.message).toContain('upper-case');
    // even with a token that was never issued: the password rules come first
    expect((await resetPassword('never-issued', 'weakpass')).status).toBe(400);
  });

  it('answers 401 for a token that was never issued', async () => {
    const res = await resetPassword('never-issued', 'Good-Pass-123');
    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
  });

  it('refuses the current password, and the refusal does not use the token up', async () => {
    const before = await countEvents(server);
    const res = await resetPassword(token, STRONG_PASSWORD);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('used this password before');
    expect(await countEvents(server)).toBe(before);
    const validate = await server.request('GET', `/auth/reset/validate?token=${encodeURIComponent(token)}`);
    expect(validate.status).toBe(200);
  });

  it('changes the password: 200 with no body, one event, old sessions end, ignores the Authorization header', async () => {
    const before = await countEvents(server);
    const res = await resetPassword(token, 'Fresh-Pass-123', { token: 'garbage' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(await countEvents(server)).toBe(before + 1);
    expect(await countEvents(server, 'user-password-changed')).toBeGreaterThan(0);
    expect((await login(server, user.username, 'Fresh-Pass-123')).status).toBe(200);
    expect((await login(server, user.username, STRONG_PASSWORD)).status).toBe(401);
    expect((await server.request('GET', '/api/admin/user', { cookie: user.cookie })).status).toBe(401);
  });

  it('answers 403 when the token is used again, and leaves the password as it is', async () => {
    const res = await resetPassword(token, 'Other-Pass-456');
    expect(res.status).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
    expect((await login(server, user.username, 'Fresh-Pass-123')).status).toBe(200);
    expect((await login(server, user.username, 'Other-Pass-456')).status).toBe(401);
    const validate = await server.request('GET', `/auth/reset/validate?token=${encodeURIComponent(token)}`);
    expect(validate.status).toBe(403);
  });

  it('a newer link replaces the older one', async () => {
    const first = await resetLink(`${user.username}@example.com`);
    const second = await resetLink(`${user.username}@example.com`);
    expect((await resetPassword(first, 'Newer-Pass-789')).status).toBe(401);
    expect((await resetPassword(second, 'Newer-Pass-789')).status).toBe(200);
  });

  it('answers 401 for an expired token', async () => {
    const fresh = await resetLink(`${user.username}@example.com`);
    await server.ctx.db.query(
      `UPDATE reset_tokens SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
    );
    expect((await resetPassword(fresh, 'Expired-Pass-1')).status).toBe(401);
  });

  it('refuses any of the last five passwords', async () => {
    const other = await createUser(server, 3);
    const email = `${other.username}@example.com`;
    const passwords = ['First-Pass-11', 'Second-Pass-22', 'Third-Pass-33'];
    for (const p of passwords) expect((await resetPassword(await resetLink(email), p)).status).toBe(200);
    const again = await resetPassword(await resetLink(email), 'First-Pass-11');
    expect(again.status).toBe(400);
  });
});

describe('a password reset', () => {
  it('revokes the personal access tokens and ends the sessions of that user only', async () => {
    const user = await createUser(server, 2);
    const other = await createUser(server, 2);
    expect((await server.request('GET', '/api/admin/user', { token: user.pat })).status).toBe(200);
    const token = await resetLink(`${user.username}@example.com`);
    expect((await resetPassword(token, 'Reset-Pass-123')).status).toBe(200);
    for (const credentials of [{ token: user.pat }, { cookie: user.cookie }]) {
      const res = await server.request('GET', '/api/admin/user', credentials);
      expect(res.status).toBe(401);
      expect(res.body.name).toBe('AuthenticationRequired');
    }
    const session = await login(server, user.username, 'Reset-Pass-123');
    const pats = await server.request('GET', '/api/admin/user/tokens', { cookie: session.cookie });
    expect(pats.body.pats).toEqual([]);
    expect((await server.request('GET', '/api/admin/user', { token: other.pat })).status).toBe(200);
    expect((await server.request('GET', '/api/admin/user', { cookie: other.cookie })).status).toBe(200);
  });
});

describe('rate limit of the reset paths', () => {
  it('allows each address 30 requests in 10 minutes, then answers 429 with Retry-After', async () => {
    const user = await createUser(server, 3);
    const token = await resetLink(`${user.username}@example.com`);
    const from = { remoteAddress: '10.8.0.1' };
    for (let i = 0; i < 20; i++) {
      const res = await server.request(
        'GET',
        `/auth/reset/validate?token=${encodeURIComponent(token)}`,
        from,
      );
      expect(res.status).toBe(200);
    }
    for (let i = 0; i < 10; i++)
      expect((await resetPassword(`guess-${i}`, 'Good-Pass-123', from)).status).toBe(401);
    const refused = await resetPassword(token, 'Limited-Pass-1', from);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      id: expect.any(String),
      name: 'RateLimitError',
      message: expect.stringMatching(/^Too many .* from your address: try again in \d+ seconds\.$/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(9 * 60);
    const validate = await server.request(
      'GET',
      `/auth/reset/validate?token=${encodeURIComponent(token)}`,
      from,
    );
    expect(validate.status).toBe(429);
    // The refused reset changed nothing: the old password still works, the link still does.
    expect((await login(server, user.username, STRONG_PASSWORD)).status).toBe(200);
    expect((await resetPassword(token, 'Limited-Pass-1', { remoteAddress: '10.8.0.2' })).status).toBe(200);
  });
});
