import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
const initClient = `default:development.${'c'.repeat(56)}`;
const initFrontend = `default:production.${'f'.repeat(56)}`;

beforeAll(async () => {
  server = await startTestServer({
    INIT_BACKEND_API_TOKENS: initClient,
    INIT_FRONTEND_API_TOKENS: initFrontend,
  });
});
afterAll(() => server.close());

const inFuture = () => new Date(Date.now() + 86_400_000).toISOString();

describe('API tokens', () => {
  it('creates a client token: 201, the secret once, scoped by project and environment', async () => {
    const before = await countEvents(server, 'api-token-created');
    const res = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: { tokenName: 'my-sdk', type: 'backend', environment: 'production', projects: ['default'] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      tokenName: 'my-sdk',
      type: 'client',
      environment: 'production',
      project: 'default',
      projects: ['default'],
    });
    expect(res.body.secret).toMatch(/^default:production\.[0-9a-f]{56}$/);
    expect(await countEvents(server, 'api-token-created')).toBe(before + 1);

    const events = await server.request(
      'GET',
      '/api/admin/events?type=api-token-created&limit=1',
      admin(server),
    );
    expect(JSON.stringify(events.body.events[0])).not.toContain(res.body.secret.split('.')[1]);

    const list = await server.request('GET', '/api/admin/api-tokens', admin(server));
    const listed = list.body.tokens.find((t: { tokenName: string }) => t.tokenName === 'my-sdk');
    expect(listed.secret).toMatch(/^default:production\.\*+$/);
  });

  it('creates admin and frontend tokens with their own forms', async () => {
    const adminToken = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: { tokenName: 'ops', type: 'ADMIN' },
    });
    expect(adminToken.status).toBe(201);
    expect(adminToken.body.secret).toMatch(/^\*:\*\.[0-9a-f]{56}$/);
    expect((await server.request('GET', '/api/admin/user', { token: adminToken.body.secret })).status).toBe(
      200,
    );

    const frontend = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: { tokenName: 'web', type: 'frontend', environment: 'development', project: 'default' },
    });
    expect(frontend.status).toBe(201);
    expect(frontend.body).toMatchObject({ type: 'frontend', projects: ['default'] });
    expect((await server.request('GET', '/api/admin/user', { token: frontend.body.secret })).status).toBe(
      403,
    );
  });

  it('refuses scopes that break the rules with 400', async () => {
    const cases = [
      { tokenName: 'x', type: 'client', environment: '*' },
      { tokenName: 'x', type: 'client', environment: 'nowhere' },
      { tokenName: 'x', type: 'client', projects: ['no-such-project'] },
      { tokenName: 'x', type: 'admin', environment: 'development' },
      { tokenName: 'x', type: 'sideways' },
      { type: 'client' },
      { tokenName: 'x', type: 'client', expiresAt: '2001-01-01T00:00:00Z' },
      { tokenName: 'x', type: 'client', expiresAt: 'tomorrow' },
    ];
    for (const body of cases) {
      const res = await server.request('POST', '/api/admin/api-tokens', { ...admin(server), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('lets Editors make client tokens but not admin tokens; Viewers none', async () => {
    const editor = await createUser(server, 2);
    const viewer = await createUser(server, 3);
    const client = await server.request('POST', '/api/admin/api-tokens', {
      token: editor.pat,
      body: { tokenName: 'e', type: 'client' },
    });
    expect(client.status).toBe(201);
    const adminToken = await server.request('POST', '/api/admin/api-tokens', {
      token: editor.pat,
      body: { tokenName: 'e', type: 'admin' },
    });
    expect(adminToken.status).toBe(403);
    const list = await server.request('GET', '/api/admin/api-tokens', { token: editor.pat });
    expect(list.body.tokens.every((t: { type: string }) => t.type !== 'admin')).toBe(true);
    expect((await server.request('GET', '/api/admin/api-tokens', { token: viewer.pat })).status).toBe(403);
    const denied = await server.request('POST', '/api/admin/api-tokens', {
      token: viewer.pat,
      body: { tokenName: 'v', type: 'client' },
    });
    expect(denied.status).toBe(403);
  });

  it('deletes by secret or by id; the token stops working', async () => {
    const made = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: { tokenName: 'short-lived', type: 'admin' },
    });
    expect(
      (
        await server.request(
          'DELETE',
          `/api/admin/api-tokens/${encodeURIComponent(made.body.secret)}`,
          admin(server),
        )
      ).status,
    ).toBe(200);
    expect((await server.request('GET', '/api/admin/user', { token: made.body.secret })).status).toBe(401);

    const other = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: { tokenName: 'by-id', type: 'admin' },
    });
    const list = await server.request('GET', '/api/admin/api-tokens', admin(server));
    const { id } = list.body.tokens.find((t: { tokenName: string }) => t.tokenName === 'by-id');
    expect(id).toBe(other.body.id);
    expect((await server.request('DELETE', `/api/admin/api-tokens/${id}`, admin(server))).status).toBe(200);
    expect((await server.request('GET', '/api/admin/user', { token: other.body.secret })).status).toBe(401);
    expect((await server.request('DELETE', '/api/admin/api-tokens/999999', admin(server))).status).toBe(404);
  });

  it('answers 404 for an id beyond any token’s, not a 500', async () => {
    for (const ref of ['2147483648', '99999999999999999999']) {
      const res = await server.request('DELETE', `/api/admin/api-tokens/${ref}`, admin(server));
      expect(res.status).toBe(404);
      expect(res.body.name).toBe('NotFoundError');
    }
  });

  it('stops accepting a token once it expires', async () => {
    const expiresAt = new Date(Date.now() + 1500);
    const made = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: { tokenName: 'expiring', type: 'admin', expiresAt: expiresAt.toISOString() },
    });
    expect((await server.request('GET', '/api/admin/user', { token: made.body.secret })).status).toBe(200);
    await new Promise((r) => setTimeout(r, expiresAt.getTime() - Date.now() + 50));
    expect((await server.request('GET', '/api/admin/user', { token: made.body.secret })).status).toBe(401);
  });
});

describe('start-up tokens', () => {
  it('creates INIT_* tokens with their scope, and only once', async () => {
    const list = await server.request('GET', '/api/admin/api-tokens', admin(server));
    const byType = (type: string) => list.body.tokens.filter((t: { type: string }) => t.type === type);
    expect(byType('client')[0]).toMatchObject({ environment: 'development', projects: ['default'] });
    expect(byType('frontend')[0]).toMatchObject({ environment: 'production', projects: ['default'] });
    expect((await server.request('GET', '/api/admin/user', { token: initClient })).status).toBe(403);

    const { prepareDatabase } = await import('../bootstrap.js');
    const before = await countEvents(server, 'api-token-created');
    await prepareDatabase(server.ctx);
    expect(await countEvents(server, 'api-token-created')).toBe(before);
  });

  it('refuses an admin start-up token that is not of the form *:*.<secret>', async () => {
    const { prepareDatabase } = await import('../bootstrap.js');
    const { loadConfig } = await import('../config.js');
    const ctx = { ...server.ctx, config: loadConfig({ INIT_ADMIN_API_TOKENS: 'default:development.abc' }) };
    await expect(prepareDatabase(ctx)).rejects.toThrow(/\*:\*\./);
  });
});

describe('personal access tokens', () => {
  it('acts as its user, with that user’s permissions', async () => {
    const viewer = await createUser(server, 3);
    const me = await server.request('GET', '/api/admin/user', { token: viewer.pat });
    expect(me.body.user.id).toBe(viewer.id);
    const write = await server.request('POST', '/api/admin/user-admin', {
      token: viewer.pat,
      body: { username: 'x', rootRole: 3 },
    });
    expect(write.status).toBe(403);
    expect(write.body.name).toBe('NoAccessError');
  });

  it('is created by a session or a PAT, shown once, listed without its secret, and deleted', async () => {
    const user = await createUser(server, 3);
    const before = await countEvents(server, 'pat-created');
    const made = await server.request('POST', '/api/admin/user/tokens', {
      token: user.pat,
      body: { description: 'ci', expiresAt: inFuture() },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ description: 'ci', userId: user.id, id: expect.any(Number) });
    expect(made.body.secret).toMatch(/^user:[0-9a-f]{56}$/);
    expect(await countEvents(server, 'pat-created')).toBe(before + 1);

    const list = await server.request('GET', '/api/admin/user/tokens', { token: user.pat });
    expect(list.body.pats.map((p: { description: string }) => p.description).sort()).toEqual(['ci', 'test']);
    expect(JSON.stringify(list.body)).not.toContain('user:');

    const del = await server.request('DELETE', `/api/admin/user/tokens/${made.body.id}`, {
      cookie: user.cookie,
    });
    expect(del.status).toBe(200);
    expect((await server.request('GET', '/api/admin/user', { token: made.body.secret })).status).toBe(401);
    expect(
      (await server.request('DELETE', `/api/admin/user/tokens/${made.body.id}`, { cookie: user.cookie }))
        .status,
    ).toBe(404);
  });

  it('cannot be made by an admin API token', async () => {
    const res = await server.request('POST', '/api/admin/user/tokens', {
      ...admin(server),
      body: { description: 'nope', expiresAt: inFuture() },
    });
    expect(res.status).toBe(403);
  });

  it('needs a description, a future expiry and a description not used before', async () => {
    const user = await createUser(server, 3);
    const make = (body: object) =>
      server.request('POST', '/api/admin/user/tokens', { token: user.pat, body });
    expect((await make({ description: '', expiresAt: inFuture() })).status).toBe(400);
    expect((await make({ description: 'x', expiresAt: '2000-01-01T00:00:00Z' })).status).toBe(400);
    expect((await make({ description: 'x' })).status).toBe(400);
    expect((await make({ description: 'test', expiresAt: inFuture() })).status).toBe(409);
  });

  it('cannot delete another user’s token', async () => {
    const a = await createUser(server, 3);
    const b = await createUser(server, 3);
    const list = await server.request('GET', '/api/admin/user/tokens', { token: a.pat });
    const res = await server.request('DELETE', `/api/admin/user/tokens/${list.body.pats[0].id}`, {
      token: b.pat,
    });
    expect(res.status).toBe(404);
    expect((await server.request('GET', '/api/admin/user', { token: a.pat })).status).toBe(200);
  });
});

describe('a project named "user"', () => {
  it('has client and frontend tokens that work: only `user:` and 56 hex digits is a personal access token', async () => {
    const created = await server.request('POST', '/api/admin/projects', {
      ...admin(server),
      body: { id: 'user', name: 'user' },
    });
    expect(created.status).toBe(201);
    const made = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: { tokenName: 'user-project-sdk', type: 'client', environment: 'development', projects: ['user'] },
    });
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^user:development\.[0-9a-f]{56}$/);
    const features = await server.request('GET', '/api/client/features', { token: made.body.secret });
    expect(features.status).toBe(200);
    expect(features.body).toMatchObject({ version: 2, features: [] });

    const frontend = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: {
        tokenName: 'user-project-web',
        type: 'frontend',
        environment: 'development',
        projects: ['user'],
      },
    });
    expect(frontend.body.secret).toMatch(/^user:development\.[0-9a-f]{56}$/);
    const toggles = await server.request('GET', '/api/frontend', { token: frontend.body.secret });
    expect(toggles.status).toBe(200);
    expect(toggles.body).toEqual({ toggles: [] });

    // The same token on an admin path is a client token there too: 403, not an unknown PAT's 401.
    const admin403 = await server.request('GET', '/api/admin/projects', { token: made.body.secret });
    expect(admin403.status).toBe(403);
    expect(admin403.body.name).toBe('NoAccessError');

    // Near misses of the PAT form name nothing.
    for (const near of [
      'user:',
      `user:${'a'.repeat(55)}`,
      `user:${'A'.repeat(56)}`,
      `user:${'a'.repeat(57)}`,
    ]) {
      const res = await server.request('GET', '/api/admin/user', { token: near });
      expect(res.status).toBe(401);
      expect(res.body.name).toBe('AuthenticationRequired');
    }
  });
});
