import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Credentials, expectAdminOnly, startAccessServer } from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, lastEvent, type TestServer, type TestUser } from '../../test/server.js';

const frontendToken = `default:development.${'f'.repeat(56)}`;
const CORS = '/api/admin/ui-config/cors';
let server: TestServer;
let viewer: TestUser;
let credentials: Credentials;

beforeAll(async () => {
  ({ server, viewer, credentials } = await startAccessServer({
    INIT_FRONTEND_API_TOKENS: frontendToken,
    UNLEASH_URL: 'https://flags.example.com',
  }));
});
afterAll(() => server.close());

const uiConfig = (token = server.adminToken) => server.request('GET', '/api/admin/ui-config', { token });
const setOrigins = (frontendApiOrigins: unknown) =>
  server.request('POST', CORS, { ...admin(server), body: { frontendApiOrigins } });

describe('GET /api/admin/telemetry/settings', () => {
  it('says that nothing is collected, to anyone signed in', async () => {
    const res = await server.request('GET', '/api/admin/telemetry/settings', { token: viewer.pat });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ versionInfoCollectionEnabled: false, featureInfoCollectionEnabled: false });
    expect((await server.request('GET', '/api/admin/telemetry/settings')).status).toBe(401);
  });
});

describe('GET /api/admin/ui-config', () => {
  it("answers Unleash's fields with this server's values", async () => {
    const res = await uiConfig();
    expect(res.status).toBe(200);
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(res.body).toEqual({
      version,
      environment: 'Open Source',
      unleashUrl: 'https://flags.example.com',
      baseUriPath: '',
      authenticationType: 'open-source',
      disablePasswordAuth: false,
      emailEnabled: false,
      maintenanceMode: false,
      prometheusAPIAvailable: true,
      oidcConfiguredThroughEnv: false,
      frontendApiOrigins: ['*'],
      flags: {},
      impactMetrics: 'internal',
      versionInfo: { current: { oss: version }, latest: {}, isLatest: true },
    });
  });

  it('is for anyone signed in: Viewers, sessions and PATs; not SDK tokens, not strangers', async () => {
    expect((await uiConfig(viewer.pat)).status).toBe(200);
    const session = await server.request('GET', '/api/admin/ui-config', { cookie: viewer.cookie });
    expect(session.status).toBe(200);
    expect(session.body.version).toBeTypeOf('string');
    expect((await server.request('GET', '/api/admin/ui-config')).status).toBe(401);
    for (const token of [credentials.client, frontendToken]) {
      const res = await uiConfig(token);
      expect(res.status).toBe(403);
      expect(res.body.name).toBe('NoAccessError');
    }
  });
});

describe('POST /api/admin/ui-config/cors', () => {
  it('stores the origins: 204, read back, setting-created then setting-updated as Unleash records them', async () => {
    const first = await setOrigins(['https://app.example.com', 'http://localhost:3000']);
    expect(first.status).toBe(204);
    expect(first.text).toBe('');
    expect((await uiConfig(viewer.pat)).body.frontendApiOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
    ]);
    const created = await lastEvent(server, 'setting-created');
    expect(created).toMatchObject({
      createdBy: 'admin',
      data: {
        id: 'unleash.frontend',
        frontendApiOrigins: ['https://app.example.com', 'http://localhost:3000'],
      },
      preData: null,
    });

    const updates = await countEvents(server, 'setting-updated');
    expect((await setOrigins(['*'])).status).toBe(204);
    expect((await uiConfig()).body.frontendApiOrigins).toEqual(['*']);
    expect(await countEvents(server, 'setting-updated')).toBe(updates + 1);
    expect(await lastEvent(server, 'setting-updated')).toMatchObject({
      data: { id: 'unleash.frontend', frontendApiOrigins: ['*'] },
      preData: { frontendApiOrigins: ['https://app.example.com', 'http://localhost:3000'] },
    });
    expect(await countEvents(server, 'setting-created')).toBe(1);
  });

  it('takes an empty list: no other site may call the SDK paths', async () => {
    expect((await setOrigins([])).status).toBe(204);
    expect((await uiConfig()).body.frontendApiOrigins).toEqual([]);
    await setOrigins(['*']);
  });

  it('records the user who changed it', async () => {
    const adminUser = await createUser(server, 1);
    const res = await server.request('POST', CORS, {
      token: adminUser.pat,
      body: { frontendApiOrigins: ['https://other.example.com'] },
    });
    expect(res.status).toBe(204);
    expect(await lastEvent(server, 'setting-updated')).toMatchObject({
      createdBy: adminUser.username,
      createdByUserId: adminUser.id,
    });
    await setOrigins(['*']);
  });

  it('refuses what is not a list of origins with 400 naming the entry, changing nothing', async () => {
    await setOrigins(['https://kept.example.com']);
    const events = await countEvents(server);
    const cases: [unknown, string][] = [
      [{ frontendApiOrigins: ['not an origin'] }, 'frontendApiOrigins.0'],
      [
        { frontendApiOrigins: ['https://ok.example.com', 'https://a.example.com/path'] },
        'frontendApiOrigins.1',
      ],
      [{ frontendApiOrigins: ['https://a.example.com/'] }, 'frontendApiOrigins.0'],
      [{ frontendApiOrigins: ['https://a.example.com:443'] }, 'frontendApiOrigins.0'],
      [{ frontendApiOrigins: ['https://A.example.com'] }, 'frontendApiOrigins.0'],
      [{ frontendApiOrigins: ['https://*.example.com'] }, 'frontendApiOrigins.0'],
      [{ frontendApiOrigins: ['null'] }, 'frontendApiOrigins.0'],
      [{ frontendApiOrigins: [''] }, 'frontendApiOrigins.0'],
      [{ frontendApiOrigins: [5] }, 'frontendApiOrigins.0'],
      [{ frontendApiOrigins: '*' }, 'frontendApiOrigins'],
      [{}, 'frontendApiOrigins'],
      [{ frontendApiOrigins: ['*'], extra: true }, 'extra'],
      [{ frontendApiOrigins: Array.from({ length: 1001 }, () => '*') }, 'frontendApiOrigins'],
    ];
    for (const [body, path] of cases) {
      const res = await server.request('POST', CORS, { ...admin(server), body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await countEvents(server)).toBe(events);
    expect((await uiConfig()).body.frontendApiOrigins).toEqual(['https://kept.example.com']);
    await setOrigins(['*']);
  });

  it('is for Admins only (401, 403 for Viewers, Editors and SDK tokens), and 415 for other bodies', async () => {
    const events = await countEvents(server);
    await expectAdminOnly(server, 'POST', CORS, credentials, {
      frontendApiOrigins: ['https://evil.example'],
    });
    const frontend = await server.request('POST', CORS, {
      token: frontendToken,
      body: { frontendApiOrigins: ['https://evil.example'] },
    });
    expect(frontend.status).toBe(403);
    expect(await countEvents(server)).toBe(events);
    expect((await uiConfig()).body.frontendApiOrigins).toEqual(['*']);
  });

  it("keeps the admin API's cross-site rule: a session's change from another site is refused", async () => {
    const adminUser = await createUser(server, 1);
    const res = await server.request('POST', CORS, {
      cookie: adminUser.cookie,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: { frontendApiOrigins: ['https://evil.example'] },
    });
    expect(res.status).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect((await uiConfig()).body.frontendApiOrigins).toEqual(['*']);
    const own = await server.request('POST', CORS, {
      cookie: adminUser.cookie,
      headers: { origin: 'https://flags.example.com', 'sec-fetch-site': 'same-origin' },
      body: { frontendApiOrigins: ['*'] },
    });
    expect(own.status).toBe(204);
  });
});

describe('GET /api/admin/ui-config after the settings changed', () => {
  it('reports maintenance mode while it is on', async () => {
    const maintenance = (enabled: boolean) =>
      server.request('POST', '/api/admin/maintenance', { token: server.adminToken, body: { enabled } });
    expect((await maintenance(true)).status).toBe(204);
    expect((await uiConfig()).body.maintenanceMode).toBe(true);
    expect((await maintenance(false)).status).toBe(204);
    expect((await uiConfig()).body.maintenanceMode).toBe(false);
  });
});
