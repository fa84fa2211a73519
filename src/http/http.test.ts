import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countEvents,
  createUser,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';
import { registerErrorHandler } from './errors.js';

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

  it('answers 404 outside /api to everything but reads, which get the web UI (src/web)', async () => {
    expectError(await server.request('POST', '/nothing-here', { body: {} }), 404, 'NotFoundError');
    expectError(await server.request('DELETE', '/nothing-here'), 404, 'NotFoundError');
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

describe('text the database cannot store', () => {
  function expectRefusedField(res: { status: number; body: any }, path: string) {
    expectError(res, 400, 'ValidationError');
    expect(res.body.details).toEqual([{ path, message: expect.stringContaining(`\`${path}\``) }]);
    expect(res.body.message).toBe(res.body.details[0].message);
  }

  it('a NUL in a description or a name is a 400 naming the field, and creates nothing', async () => {
    const before = await countEvents(server);
    const described = await server.request('POST', '/api/admin/projects', {
      token: server.adminToken,
      body: { id: 'nul-description', name: 'Fine', description: 'before\u0000after' },
    });
    expectRefusedField(described, 'description');
    expect(described.body.message).toContain('NUL');
    const named = await server.request('POST', '/api/admin/projects', {
      token: server.adminToken,
      body: { id: 'nul-name', name: 'P\u0000' },
    });
    expectRefusedField(named, 'name');
    for (const id of ['nul-description', 'nul-name']) {
      const read = await server.request('GET', `/api/admin/projects/${id}`, { token: server.adminToken });
      expect(read.status).toBe(404);
    }
    expect(await countEvents(server)).toBe(before);
  });

  it('a NUL in a constraint value, or in a key, names where it is', async () => {
    const feature = await server.request('POST', '/api/admin/projects/default/features', {
      token: server.adminToken,
      body: { name: 'nul-constraint' },
    });
    expect(feature.status).toBe(201);
    const url = '/api/admin/projects/default/features/nul-constraint/environments/development/strategies';
    const value = await server.request('POST', url, {
      token: server.adminToken,
      body: {
        name: 'default',
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b\u0000'] }],
      },
    });
    expectRefusedField(value, 'constraints.0.values.1');
    const key = await server.request('POST', url, {
      token: server.adminToken,
      body: { name: 'default', parameters: { 'a\u0000b': '1' } },
    });
    expectRefusedField(key, 'parameters.a\\u0000b');
    const strategies = await server.request('GET', url, { token: server.adminToken });
    expect(strategies.body).toEqual([]);
  });

  it('a NUL in an SDK application name is a 400 on registration and on metrics', async () => {
    const created = await server.request('POST', '/api/admin/api-tokens', {
      token: server.adminToken,
      body: { tokenName: 'nul-sdk', type: 'client', environment: 'development', projects: ['*'] },
    });
    const sdk = created.body.secret;
    const register = await server.request('POST', '/api/client/register', {
      token: sdk,
      body: { appName: 'app\u0000', instanceId: 'i-1', interval: 10_000, strategies: ['default'] },
    });
    expectRefusedField(register, 'appName');
    const now = new Date().toISOString();
    const metrics = await server.request('POST', '/api/client/metrics', {
      token: sdk,
      body: {
        appName: 'app',
        environment: 'dev\u0000',
        bucket: { start: now, stop: now, toggles: { 'flag\u0000': { yes: 1, no: 0 } } },
      },
    });
    expectRefusedField(metrics, 'environment');
    const apps = await server.request('GET', '/api/admin/metrics/applications', { token: server.adminToken });
    expect(apps.body.applications).toEqual([]);
  });

  it('a NUL in the username of an unauthenticated sign-in is a 400, not a 500', async () => {
    const res = await server.request('POST', '/auth/simple/login', {
      body: { username: 'admin\u0000', password: 'unleash4all' },
    });
    expectRefusedField(res, 'username');
  });

  it('half of a surrogate pair is not Unicode text: a 400 naming the field', async () => {
    const res = await server.request('POST', '/api/admin/context', {
      token: server.adminToken,
      body: '{"name":"lone-surrogate","legalValues":[{"value":"ok"},{"value":"x\\ud800"}]}',
    });
    expectRefusedField(res, 'legalValues.1.value');
    expect(res.body.message).toContain('surrogate');
    // A whole pair is text like any other.
    const pair = await server.request('POST', '/api/admin/context', {
      token: server.adminToken,
      body: '{"name":"surrogate-pair","legalValues":[{"value":"\\ud83d\\udca9"}]}',
    });
    expect(pair.status).toBe(201);
    const read = await server.request('GET', '/api/admin/context/surrogate-pair', {
      token: server.adminToken,
    });
    expect(read.body.legalValues).toEqual([expect.objectContaining({ value: '💩' })]);
  });

  it('%00 in a path parameter or a query value is a 400 naming it, after authentication', async () => {
    expectError(await server.request('GET', '/api/admin/projects/a%00b'), 401, 'AuthenticationRequired');
    const path = await server.request('GET', '/api/admin/projects/a%00b', { token: server.adminToken });
    expectRefusedField(path, 'params.projectId');
    const query = await server.request('GET', '/api/admin/events?project=%00', { token: server.adminToken });
    expectRefusedField(query, 'query.project');
  });
});

describe('URLs that do not decode', () => {
  it('a path segment that is not UTF-8 answers the error body of the contract', async () => {
    const res = await server.request('GET', '/api/admin/projects/%FF', { token: server.adminToken });
    expectError(res, 400, 'ValidationError');
    expect(Object.keys(res.body).sort()).toEqual(['id', 'message', 'name']);
    expect(res.body.message).toContain('/api/admin/projects/%FF');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('under /api, without credentials, it is a 401 first; elsewhere a 400', async () => {
    expectError(await server.request('GET', '/api/admin/projects/%FF'), 401, 'AuthenticationRequired');
    expectError(await server.request('GET', '/invite/%C0%AE/validate'), 400, 'ValidationError');
  });

  it('a path segment longer than any name or id answers 400 with the error body', async () => {
    const res = await server.request('GET', `/api/admin/projects/${'p'.repeat(5000)}`, {
      token: server.adminToken,
    });
    expectError(res, 400, 'ValidationError');
    expect(Object.keys(res.body).sort()).toEqual(['id', 'message', 'name']);
  });
});

describe('keys that reach prototypes', () => {
  it('a __proto__ key is refused by name and place, not as malformed JSON', async () => {
    const before = await countEvents(server);
    const top = await server.request('POST', '/api/admin/projects', {
      token: server.adminToken,
      body: '{"id":"proto-top","name":"x","__proto__":{"isAdmin":true}}',
    });
    expectError(top, 400, 'ValidationError');
    expect(top.body.details).toEqual([
      { path: '__proto__', message: expect.stringContaining('`__proto__`') },
    ]);
    expect(top.body.message).not.toContain('not valid JSON');
    const nested = await server.request('POST', '/api/admin/segments', {
      token: server.adminToken,
      body: '{"name":"s","constraints":[{"contextName":"userId","operator":"IN","values":["a"],"__proto__":{}}]}',
    });
    expectError(nested, 400, 'ValidationError');
    expect(nested.body.details[0].path).toBe('constraints.0.__proto__');
    expect(await countEvents(server)).toBe(before);
  });

  it('constructor.prototype is refused the same way', async () => {
    const res = await server.request('POST', '/api/admin/projects', {
      token: server.adminToken,
      body: '{"id":"proto-ctor","name":"x","constructor":{"prototype":{"isAdmin":true}}}',
    });
    expectError(res, 400, 'ValidationError');
    expect(res.body.details).toEqual([
      { path: 'constructor', message: expect.stringContaining('`constructor`') },
    ]);
  });

  it('JSON that does not parse is still "not valid JSON"', async () => {
    const res = await server.request('POST', '/api/admin/projects', {
      token: server.adminToken,
      body: '{"id":"broken", "__proto__": ',
    });
    expectError(res, 400, 'ValidationError');
    expect(res.body.message).toContain('not valid JSON');
  });
});

describe('values only the database refuses (SQLSTATE class 22)', () => {
  it('answer 400 ValidationError, not 500: the safety net behind the checks', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/out-of-range', () => server.ctx.db.query('SELECT $1::int AS n', ['99999999999999999999']));
    app.get('/nul', () => server.ctx.db.query('SELECT $1::text AS t', ['a\u0000b']));
    app.get('/not-json', () => server.ctx.db.query('SELECT $1::jsonb AS j', ['{"a":"\\ud800"}']));
    const answers = await Promise.all(
      ['/out-of-range', '/nul', '/not-json'].map((url) => app.inject({ method: 'GET', url })),
    );
    for (const res of answers)
      expectError({ status: res.statusCode, body: res.json() }, 400, 'ValidationError');
    expect(answers[0]!.json().message).toContain('out of range');
    expect(answers[1]!.json().message).toContain('NUL');
    await app.close();
  });
});
