import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer } from '../../test/access.js';
import { admin } from '../../test/requests.js';
import {
  countEvents,
  createFeature,
  isPostgres,
  lastEvent,
  login,
  STRONG_PASSWORD,
  startReplica,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

const FRONTEND = `default:development.${'f'.repeat(56)}`;
let server: TestServer;
let viewer: TestUser;
let editor: TestUser;
let client: string;

beforeAll(async () => {
  const fixture = await startAccessServer({ INIT_FRONTEND_API_TOKENS: FRONTEND });
  ({ server, viewer, editor } = fixture);
  client = fixture.credentials.client;
  await createFeature(server, 'served');
});
afterAll(() => server.close());

const toggle = (enabled: unknown, token = server.adminToken) =>
  server.request('POST', '/api/admin/maintenance', { token, body: { enabled } });

describe('GET and POST /api/admin/maintenance', () => {
  it('is off at first; any signed-in user may read it, nobody without credentials', async () => {
    for (const token of [viewer.pat, server.adminToken]) {
      const res = await server.request('GET', '/api/admin/maintenance', { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ enabled: false });
    }
    expect((await server.request('GET', '/api/admin/maintenance', { cookie: viewer.cookie })).status).toBe(
      200,
    );
    expect((await server.request('GET', '/api/admin/maintenance')).status).toBe(401);
    expect((await server.request('GET', '/api/admin/maintenance', { token: client })).status).toBe(403);
  });

  it('is switched by Admins only (204), recorded as Unleash records it', async () => {
    const events = await countEvents(server);
    for (const token of [viewer.pat, editor.pat, client]) {
      const res = await toggle(true, token);
      expect(res.status).toBe(403);
      expect(res.body.name).toBe('NoAccessError');
    }
    for (const body of [{}, { enabled: 'yes' }, { enabled: null }]) {
      const res = await server.request('POST', '/api/admin/maintenance', { ...admin(server), body });
      expect(res.status).toBe(400);
      expect(res.body.details[0].path).toBe('enabled');
    }
    const wrongType = await server.request('POST', '/api/admin/maintenance', {
      ...admin(server),
      body: '{"enabled":true}',
      contentType: 'text/plain',
    });
    expect(wrongType.status).toBe(415);
    expect(await countEvents(server)).toBe(events);
    expect((await server.request('GET', '/api/admin/maintenance', admin(server))).body).toEqual({
      enabled: false,
    });

    const on = await toggle(true);
    expect(on.status).toBe(204);
    expect(on.text).toBe('');
    expect((await server.request('GET', '/api/admin/maintenance', { token: viewer.pat })).body).toEqual({
      enabled: true,
    });
    expect(await lastEvent(server, 'setting-created')).toMatchObject({
      createdBy: 'admin',
      data: { id: 'maintenance.mode', enabled: true },
      preData: null,
    });
    expect((await toggle(false)).status).toBe(204);
    expect(await lastEvent(server, 'setting-updated')).toMatchObject({
      data: { id: 'maintenance.mode', enabled: false },
      preData: { enabled: true },
    });
    expect((await server.request('GET', '/api/admin/maintenance', admin(server))).body).toEqual({
      enabled: false,
    });
  });
});

describe('while maintenance mode is on', () => {
  it('refuses every admin write with 503 and changes nothing; reads, SDKs and sign-in go on', async () => {
    expect((await toggle(true)).status).toBe(204);
    try {
      const events = await countEvents(server);
      const writes: [string, string, unknown][] = [
        ['POST', '/api/admin/projects/default/features', { name: 'blocked' }],
        ['PUT', '/api/admin/projects/default/features/served', { description: 'changed' }],
        [
          'PATCH',
          '/api/admin/projects/default/features/served',
          [{ op: 'replace', path: '/description', value: 'x' }],
        ],
        ['DELETE', '/api/admin/projects/default/features/served', undefined],
        [
          'POST',
          '/api/admin/user/tokens',
          { description: 'pat', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
        ],
      ];
      for (const [method, url, body] of writes) {
        const token = url === '/api/admin/user/tokens' ? editor.pat : server.adminToken;
        const res = await server.request(method, url, { token, body });
        expect(res.status, `${method} ${url}`).toBe(503);
        expect(res.body).toMatchObject({
          name: 'ServiceUnavailableError',
          message: expect.stringContaining('maintenance mode'),
        });
      }
      // Credentials and permissions are checked first.
      expect(
        (await server.request('POST', '/api/admin/projects/default/features', { body: { name: 'x' } }))
          .status,
      ).toBe(401);
      expect(
        (
          await server.request('POST', '/api/admin/projects/default/features', {
            token: viewer.pat,
            body: { name: 'x' },
          })
        ).status,
      ).toBe(403);
      expect(await countEvents(server)).toBe(events);
      const feature = await server.request(
        'GET',
        '/api/admin/projects/default/features/served',
        admin(server),
      );
      expect(feature.status).toBe(200);
      expect(feature.body.description).not.toBe('changed');

      const features = await server.request('GET', '/api/client/features', { token: client });
      expect(features.status).toBe(200);
      expect(features.body.features.map((f: any) => f.name)).toContain('served');
      const register = await server.request('POST', '/api/client/register', {
        token: client,
        body: { appName: 'during-maintenance', instanceId: 'i1', strategies: [] },
      });
      expect(register.status).toBe(202);
      const now = new Date().toISOString();
      const metrics = await server.request('POST', '/api/client/metrics', {
        token: client,
        body: {
          appName: 'during-maintenance',
          bucket: { start: now, stop: now, toggles: { served: { yes: 1, no: 0 } } },
        },
      });
      expect(metrics.status).toBe(202);
      expect((await server.request('GET', '/api/frontend', { token: FRONTEND })).status).toBe(200);
      const signIn = await login(server, viewer.username, STRONG_PASSWORD);
      expect(signIn.status).toBe(200);
      expect((await server.request('POST', '/logout', { cookie: signIn.cookie })).status).toBeLessThan(400);
    } finally {
      expect((await toggle(false)).status).toBe(204);
    }
    const after = await server.request('PUT', '/api/admin/projects/default/features/served', {
      ...admin(server),
      body: { description: 'changed after' },
    });
    expect(after.status).toBe(200);
  });

  it.runIf(isPostgres())('reaches another replica within a second', async () => {
    const replica = await startReplica(server);
    try {
      expect((await toggle(true)).status).toBe(204);
      const started = Date.now();
      let refused = 0;
      for (let i = 0; Date.now() - started < 1000; i++) {
        const res = await replica.request('POST', '/api/admin/tag-types', {
          token: server.adminToken,
          body: { name: `replica-${i}` },
        });
        if (res.status === 503) {
          refused = Date.now() - started;
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(refused).toBeGreaterThan(0);
      expect((await replica.request('GET', '/api/admin/maintenance', admin(server))).body).toEqual({
        enabled: true,
      });
    } finally {
      await toggle(false);
      await replica.close();
    }
  });
});
