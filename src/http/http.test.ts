import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countEvents,
  createUser,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  viewer = await createUser(server, 3);
});
afterAll(() => server.close());

function expectError(res: { status: number; body: any }, status: number, name: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ name, message: expect.any(String), id: expect.any(String) });
  expect(res.body.message.length).toBeGreaterThan(10);
}

describe('authentication', () => {
  it('answers 401 AuthenticationRequired without credentials', async () => {
    for (const url of [
      '/api/admin/user',
      '/api/admin/events',
      '/api/admin/user-admin',
      '/api/admin/api-tokens',
    ]) {
      expectError(await server.request('GET', url), 401, 'AuthenticationRequired');
    }
  });

  it('answers 401 for garbage and for well-formed tokens that were never issued', async () => {
    expectError(
      await server.request('GET', '/api/admin/user', { token: 'garbage' }),
      401,
      'AuthenticationRequired',
    );
    expectError(
      await server.request('GET', '/api/admin/user', { token: `*:*.${'a'.repeat(56)}` }),
      401,
      'AuthenticationRequired',
    );
    expectError(
      await server.request('GET', '/api/admin/user', { token: `user:${'b'.repeat(56)}` }),
      401,
      'AuthenticationRequired',
    );
  });

  it('accepts tokens with and without the Bearer prefix', async () => {
    expect((await server.request('GET', '/api/admin/user', { token: server.adminToken })).status).toBe(200);
    expect(
      (await server.request('GET', '/api/admin/user', { token: `Bearer ${server.adminToken}` })).status,
    ).toBe(200);
    expect((await server.request('GET', '/api/admin/user', { token: `Bearer ${viewer.pat}` })).status).toBe(
      200,
    );
  });

  it('answers 401 for an unknown session cookie', async () => {
    expectError(
      await server.request('GET', '/api/admin/user', { cookie: 'unleash-session=nope' }),
      401,
      'AuthenticationRequired',
    );
  });
});

describe('unknown paths', () => {
  it('answers 401 under /api without credentials and 404 with them', async () => {
    expectError(await server.request('GET', '/api/admin/no-such-thing'), 401, 'AuthenticationRequired');
    const res = await server.request('GET', '/api/admin/no-such-thing', { token: server.adminToken });
    expectError(res, 404, 'NotFoundError');
    expect(res.body.message).toContain('/api/admin/no-such-thing');
  });

  it('answers 404 outside /api', async () => {
    expectError(await server.request('GET', '/nothing-here'), 404, 'NotFoundError');
  });
});

describe('order of checks: 401 → 403 → 415 → 400', () => {
  const url = '/api/admin/user-admin';

  it('no token and a text/plain body → 401', async () => {
    const res = await server.request('POST', url, { body: 'hello', contentType: 'text/plain' });
    expectError(res, 401, 'AuthenticationRequired');
  });

  it('a Viewer with a text/plain body → 403 naming the permission', async () => {
    const res = await server.request('POST', url, {
      token: viewer.pat,
      body: 'hello',
      contentType: 'text/plain',
    });
    expectError(res, 403, 'NoAccessError');
    expect(res.body.message).toContain('ADMIN');
  });

  it('the admin token with a text/plain body → 415', async () => {
    const res = await server.request('POST', url, {
      token: server.adminToken,
      body: 'hello',
      contentType: 'text/plain',
    });
    expectError(res, 415, 'ContentTypeError');
  });

  it('the admin token with no content type and no body → 415', async () => {
    expectError(await server.request('POST', url, { token: server.adminToken }), 415, 'ContentTypeError');
  });

  it('the admin token with malformed JSON → 400', async () => {
    const res = await server.request('POST', url, { token: server.adminToken, body: '{"username": ' });
    expectError(res, 400, 'ValidationError');
  });

  it('the admin token with a body that breaks the schema → 400 with one detail per field', async () => {
    const res = await server.request('POST', url, {
      token: server.adminToken,
      body: { username: 5, unknownField: true },
    });
    expectError(res, 400, 'ValidationError');
    const paths = res.body.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['rootRole', 'unknownField', 'username']);
  });

  it('accepts application/json with a charset', async () => {
    const res = await server.request('POST', url, {
      token: server.adminToken,
      body: { username: 'charset-user', rootRole: 3 },
      contentType: 'application/json; charset=utf-8',
    });
    expect(res.status).toBe(201);
  });

  it('a client token on an admin path → 403 for reads and writes', async () => {
    const created = await server.request('POST', '/api/admin/api-tokens', {
      token: server.adminToken,
      body: { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['default'] },
    });
    expect(created.status).toBe(201);
    expectError(
      await server.request('GET', '/api/admin/user', { token: created.body.secret }),
      403,
      'NoAccessError',
    );
    expectError(
      await server.request('POST', url, { token: created.body.secret, body: { username: 'x', rootRole: 3 } }),
      403,
      'NoAccessError',
    );
  });
});

describe('a refused request changes nothing', () => {
  it('writes no event and no user when validation fails', async () => {
    const before = await countEvents(server);
    const res = await server.request('POST', '/api/admin/user-admin', {
      token: server.adminToken,
      body: { username: 'weak-one', password: 'short', rootRole: 3 },
    });
    expect(res.status).toBe(400);
    expect(await countEvents(server)).toBe(before);
    const users = await server.request('GET', '/api/admin/user-admin', { token: server.adminToken });
    expect(users.body.users.map((u: { username: string }) => u.username)).not.toContain('weak-one');
  });
});

describe('unexpected errors', () => {
  it('answer 500 InternalError with an id and no stack trace', async () => {
    const broken = await startTestServer();
    await broken.ctx.db.close();
    const res = await broken.request('GET', '/api/admin/user', { token: broken.adminToken });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'InternalError',
      message: expect.stringContaining(res.body.id),
    });
    expect(res.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
    await broken.close();
  });
});
