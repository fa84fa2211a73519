import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countEvents,
  createUser,
  lastEvent,
  STRONG_PASSWORD,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
let user: TestUser;
let address = 0;
/** Each test its own client address, so that the rate limits of one do not touch another. */
const from = () => ({ remoteAddress: `10.9.0.${++address}` });

beforeAll(async () => {
  server = await startTestServer();
  user = await createUser(server, 3);
});
afterAll(() => server.close());

describe('POST /auth/reset/validate-password', () => {
  it('needs no credentials: 200 for a good password, 400 ValidationError with details for a weak one', async () => {
    const ok = await server.request('POST', '/auth/reset/validate-password', {
      ...from(),
      body: { password: STRONG_PASSWORD },
    });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('');
    const weak = await server.request('POST', '/auth/reset/validate-password', {
      ...from(),
      body: { password: 'short1!' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({ name: 'ValidationError' });
    expect(weak.body.details).toEqual([
      { path: 'password', message: 'The password must be at least 10 characters long.' },
      { path: 'password', message: 'The password must contain at least one upper-case letter.' },
    ]);
    const empty = await server.request('POST', '/auth/reset/validate-password', {
      ...from(),
      body: { password: '' },
    });
    expect(empty.body.message).toBe('The password must not be empty.');
  });

  it('refuses bad bodies with 400 and other content types with 415; a garbage token is ignored', async () => {
    for (const body of [{}, { password: 5 }, { password: STRONG_PASSWORD, token: 'x' }]) {
      const res = await server.request('POST', '/auth/reset/validate-password', { ...from(), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    const text = await server.request('POST', '/auth/reset/validate-password', {
      ...from(),
      body: 'x',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    const garbage = await server.request('POST', '/auth/reset/validate-password', {
      ...from(),
      token: 'garbage',
      body: { password: STRONG_PASSWORD },
    });
    expect(garbage.status).toBe(200);
  });

  it('allows 120 checks per address in 10 minutes, then 429 with Retry-After', async () => {
    const me = from();
    for (let i = 0; i < 120; i++) {
      const res = await server.request('POST', '/auth/reset/validate-password', {
        ...me,
        body: { password: 'x' },
      });
      expect(res.status).toBe(400);
    }
    const refused = await server.request('POST', '/auth/reset/validate-password', {
      ...me,
      body: { password: STRONG_PASSWORD },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.name).toBe('RateLimitError');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const other = await server.request('POST', '/auth/reset/validate-password', {
      ...from(),
      body: { password: STRONG_PASSWORD },
    });
    expect(other.status).toBe(200);
  });
});

describe('POST /auth/reset/password-email', () => {
  it('answers the same for a known and an unknown address; only the known one is recorded', async () => {
    const events = await countEvents(server, 'user-password-reset-requested');
    const known = await server.request('POST', '/auth/reset/password-email', {
      ...from(),
      body: { email: `${user.username}@EXAMPLE.com` },
    });
    expect(await countEvents(server, 'user-password-reset-requested')).toBe(events + 1);
    const event = await lastEvent(server, 'user-password-reset-requested');
    expect(event).toMatchObject({
      createdBy: 'system',
      data: {
        id: user.id,
        username: user.username,
        email: `${user.username}@example.com`,
        via: 'password-email',
      },
    });
    const unknown = await server.request('POST', '/auth/reset/password-email', {
      ...from(),
      body: { email: 'nobody@example.com' },
    });
    expect(await countEvents(server, 'user-password-reset-requested')).toBe(events + 1);
    expect([known.status, known.text]).toEqual([200, '']);
    expect([unknown.status, unknown.text]).toEqual([200, '']);
  });

  it('records one request per address in 15 minutes, answering the others alike', async () => {
    const other = await createUser(server, 3);
    const events = await countEvents(server, 'user-password-reset-requested');
    for (let i = 0; i < 3; i++) {
      const res = await server.request('POST', '/auth/reset/password-email', {
        ...from(),
        body: { email: `${other.username}@example.com` },
      });
      expect(res.status).toBe(200);
    }
    expect(await countEvents(server, 'user-password-reset-requested')).toBe(events + 1);
  });

  it('leaves a reset link an Admin gave out working, and the password as it was', async () => {
    const other = await createUser(server, 3);
    const email = `${other.username}@example.com`;
    const link = await server.request('POST', '/api/admin/user-admin/reset-password', {
      token: server.adminToken,
      body: { id: email },
    });
    expect(link.status).toBe(200);
    const token = new URL(link.body.resetPasswordUrl).searchParams.get('token')!;
    expect(
      (await server.request('POST', '/auth/reset/password-email', { ...from(), body: { email } })).status,
    ).toBe(200);
    const valid = await server.request(
      'GET',
      `/auth/reset/validate?token=${encodeURIComponent(token)}`,
      from(),
    );
    expect(valid.status).toBe(200);
    const signIn = await server.request('POST', '/auth/simple/login', {
      body: { username: other.username, password: STRONG_PASSWORD },
    });
    expect(signIn.status).toBe(200);
  });

  it('refuses bad bodies with 400 and other content types with 415, recording nothing', async () => {
    const events = await countEvents(server, 'user-password-reset-requested');
    for (const body of [{}, { email: '' }, { email: 3 }, { email: `${user.username}@example.com`, x: 1 }]) {
      const res = await server.request('POST', '/auth/reset/password-email', { ...from(), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    const text = await server.request('POST', '/auth/reset/password-email', {
      ...from(),
      body: 'x',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    expect(await countEvents(server, 'user-password-reset-requested')).toBe(events);
  });

  it('counts with the other reset requests of an address: 30 in 10 minutes, then 429', async () => {
    const me = from();
    for (let i = 0; i < 30; i++) {
      const res = await server.request('POST', '/auth/reset/password-email', {
        ...me,
        body: { email: `someone${i}@example.com` },
      });
      expect(res.status).toBe(200);
    }
    const refused = await server.request('POST', '/auth/reset/password-email', {
      ...me,
      body: { email: 'one-more@example.com' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.name).toBe('RateLimitError');
    const validate = await server.request('GET', '/auth/reset/validate?token=abc', me);
    expect(validate.status).toBe(429);
  });
});
