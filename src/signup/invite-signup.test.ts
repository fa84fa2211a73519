import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastEvent, startAccessServer } from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, login, STRONG_PASSWORD, type TestServer, type TestUser } from '../../test/server.js';
import { createSignupToken } from '../../test/signup.js';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;

beforeAll(async () => {
  ({ server, viewer, editor } = await startAccessServer());
});
afterAll(() => server.close());

let signups = 0;
function signUp(secret: string, body: Record<string, unknown> = {}) {
  signups += 1;
  return server.request('POST', `/invite/${secret}/signup`, {
    body: {
      email: `joiner${signups}@example.com`,
      name: `Joiner ${signups}`,
      password: STRONG_PASSWORD,
      ...body,
    },
  });
}

describe('joining with an invite link', () => {
  it('validates a usable token (200) without credentials; 400 for unknown ones', async () => {
    const token = await createSignupToken(server, 'Validate me');
    const ok = await server.request('GET', `/invite/${token.secret}/validate`, {
      headers: { authorization: 'garbage' },
    });
    expect(ok.status).toBe(200);
    const bad = await server.request('GET', '/invite/not-a-token/validate');
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
  });

  it('creates a Viewer who can sign in with username or email, listed among the users of the token', async () => {
    const token = await createSignupToken(server, 'Join us');
    const events = await countEvents(server, 'public-signup-token-user-added');
    const res = await server.request('POST', `/invite/${token.secret}/signup`, {
      body: { email: 'newbie@example.com', name: 'New Bie', password: STRONG_PASSWORD, username: 'newbie' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      email: 'newbie@example.com',
      name: 'New Bie',
      username: 'newbie',
      rootRole: 3,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
    const read = await server.request('GET', `/api/admin/user-admin/${res.body.id}`, admin(server));
    expect(read.body.rootRole).toBe(3);

    const byUsername = await login(server, 'newbie', STRONG_PASSWORD);
    expect(byUsername.status).toBe(200);
    const byEmail = await login(server, 'newbie@example.com', STRONG_PASSWORD);
    expect(byEmail.status).toBe(200);
    expect((await server.request('GET', '/api/admin/projects', { cookie: byEmail.cookie })).status).toBe(200);
    const write = await server.request('POST', '/api/admin/projects/default/features', {
      cookie: byEmail.cookie,
      body: { name: 'newbie-feature' },
    });
    expect(write.status).toBe(403);

    const withUsers = await server.request(
      'GET',
      `/api/admin/invite-link/tokens/${token.secret}`,
      admin(server),
    );
    expect(withUsers.body.users).toEqual([{ id: res.body.id, name: 'New Bie', username: 'newbie' }]);
    expect(await countEvents(server, 'public-signup-token-user-added')).toBe(events + 1);
    const event = await lastEvent(server, 'public-signup-token-user-added');
    expect(event.data).toMatchObject({ userId: res.body.id, tokenName: 'Join us' });
    expect(JSON.stringify(event)).not.toContain(token.secret);
  });

  it('refuses unknown, disabled and expired tokens with 400, creating no user', async () => {
    const disabled = await createSignupToken(server, 'Disabled');
    await server.request('PUT', `/api/admin/invite-link/tokens/${disabled.secret}`, {
      ...admin(server),
      body: { enabled: false },
    });
    const expired = await createSignupToken(server, 'Expired', '2020-01-01T00:00:00.000Z');
    const usersBefore = (await server.request('GET', '/api/admin/user-admin', admin(server))).body.users
      .length;
    for (const secret of ['nope', disabled.secret, expired.secret]) {
      const res = await signUp(secret, { email: `refused-${secret.slice(0, 6)}@example.com` });
      expect(res.status, secret).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    expect((await server.request('GET', '/api/admin/user-admin', admin(server))).body.users).toHaveLength(
      usersBefore,
    );
  });

  it('refuses taken emails or usernames, weak passwords and bad bodies with 400; 415 for other bodies', async () => {
    const token = await createSignupToken(server, 'Strict');
    const usersBefore = (await server.request('GET', '/api/admin/user-admin', admin(server))).body.users
      .length;
    const events = await countEvents(server);
    const taken = await signUp(token.secret, { email: `${viewer.username}@example.com` });
    expect(taken.status).toBe(400);
    expect((await signUp(token.secret, { username: editor.username })).status).toBe(400);
    expect((await signUp(token.secret, { password: 'weak' })).status).toBe(400);
    expect((await signUp(token.secret, { email: 'not-an-email' })).status).toBe(400);
    for (const body of [
      { name: 'x', password: STRONG_PASSWORD },
      { email: 5, name: 'x', password: STRONG_PASSWORD },
    ]) {
      const res = await server.request('POST', `/invite/${token.secret}/signup`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const wrongType = await server.request('POST', `/invite/${token.secret}/signup`, {
      body: JSON.stringify({ email: 'typed@example.com', name: 'x', password: STRONG_PASSWORD }),
      contentType: 'text/plain',
    });
    expect(wrongType.status).toBe(415);
    expect((await server.request('GET', '/api/admin/user-admin', admin(server))).body.users).toHaveLength(
      usersBefore,
    );
    expect(await countEvents(server)).toBe(events);
    const read = await server.request('GET', `/api/admin/invite-link/tokens/${token.secret}`, admin(server));
    expect(read.body.users).toEqual([]);
  });
});

describe('rate limit of the public invite paths', () => {
  it('allows each address 30 validations and sign-ups in 10 minutes, then answers 429 with Retry-After', async () => {
    const token = await createSignupToken(server, 'Popular');
    const from = (remoteAddress: string) => ({ remoteAddress });
    for (let i = 0; i < 25; i++) {
      const res = await server.request('GET', `/invite/${token.secret}/validate`, from('10.7.0.1'));
      expect(res.status).toBe(200);
    }
    for (let i = 0; i < 5; i++) {
      const res = await server.request('POST', `/invite/${token.secret}/signup`, {
        ...from('10.7.0.1'),
        body: { email: `limited${i}@example.com`, name: 'Limited', password: STRONG_PASSWORD },
      });
      expect(res.status).toBe(201);
    }
    const users = await server.request('GET', '/api/admin/user-admin', admin(server));
    const before = users.body.users.length;
    const refused = await server.request('POST', `/invite/${token.secret}/signup`, {
      ...from('10.7.0.1'),
      body: { email: 'one-too-many@example.com', name: 'Late', password: STRONG_PASSWORD },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      id: expect.any(String),
      name: 'RateLimitError',
      message: expect.stringMatching(/^Too many .* from your address: try again in \d+ seconds\.$/),
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(9 * 60);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    const validate = await server.request('GET', `/invite/${token.secret}/validate`, from('10.7.0.1'));
    expect(validate.status).toBe(429);
    expect(validate.headers['retry-after']).toBeDefined();
    // Nothing was created by the refused sign-up; other addresses go on.
    expect((await server.request('GET', '/api/admin/user-admin', admin(server))).body.users).toHaveLength(
      before,
    );
    expect((await server.request('GET', `/invite/${token.secret}/validate`, from('10.7.0.2'))).status).toBe(
      200,
    );
  });
});
