import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucket, eventually, postMetrics } from '../../test/metrics.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, startTestServer, type TestServer } from '../../test/server.js';

const clientToken = `default:development.${'c'.repeat(56)}`;
const frontendToken = `default:development.${'f'.repeat(56)}`;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    INIT_CLIENT_API_TOKENS: clientToken,
    INIT_FRONTEND_API_TOKENS: frontendToken,
  });
});
afterAll(() => server.close());

const e13 = (appName: string, body: unknown, token = server.adminToken) =>
  server.request('POST', `/api/admin/metrics/applications/${appName}`, { token, body });

describe('E13 POST /api/admin/metrics/applications/:appName', () => {
  it('creates the application in the path: 202, no body, one event', async () => {
    const before = await countEvents(server, 'application-created');
    const res = await e13('web', {
      appName: 'ignored-name',
      sdkVersion: 'unleash-client-node:6.1.0',
      strategies: ['default', 'flexibleRollout'],
      url: 'https://web.example.com',
      color: '#ff0000',
      icon: 'https://web.example.com/icon.png',
    });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    expect(await countEvents(server, 'application-created')).toBe(before + 1);
    const read = await server.request('GET', '/api/admin/metrics/applications/web', admin(server));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      appName: 'web',
      sdkVersion: 'unleash-client-node:6.1.0',
      strategies: ['default', 'flexibleRollout'],
      url: 'https://web.example.com',
      color: '#ff0000',
      icon: 'https://web.example.com/icon.png',
      instances: [],
      seenToggles: [],
    });
    expect(
      (await server.request('GET', '/api/admin/metrics/applications/ignored-name', admin(server))).status,
    ).toBe(404);
  });

  it('changes only the fields sent on an existing application', async () => {
    expect((await e13('web', { color: 'blue' })).status).toBe(202);
    const read = await server.request('GET', '/api/admin/metrics/applications/web', admin(server));
    expect(read.body).toMatchObject({
      color: 'blue',
      url: 'https://web.example.com',
      strategies: ['default', 'flexibleRollout'],
    });
    expect((await e13('empty-body', {})).status).toBe(202);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const before = await countEvents(server);
    expect((await e13('bad', { strategies: 'default' })).status).toBe(400);
    expect((await e13('bad', { strategies: [1, 2] })).status).toBe(400);
    expect((await e13('bad', { color: ['red'] })).status).toBe(400);
    const text = await server.request('POST', '/api/admin/metrics/applications/bad', {
      ...admin(server),
      body: 'x',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    expect(await countEvents(server)).toBe(before);
    expect((await server.request('GET', '/api/admin/metrics/applications/bad', admin(server))).status).toBe(
      404,
    );
  });

  it('lets Editors change applications; Viewers read only; client tokens and strangers not at all', async () => {
    const editor = await createUser(server, 2);
    const viewer = await createUser(server, 3);
    expect((await e13('by-editor', {}, editor.pat)).status).toBe(202);
    expect((await e13('by-viewer', {}, viewer.pat)).status).toBe(403);
    expect(
      (await server.request('GET', '/api/admin/metrics/applications/web', { token: viewer.pat })).status,
    ).toBe(200);
    expect((await e13('by-client', {}, clientToken)).status).toBe(403);
    expect((await server.request('POST', '/api/admin/metrics/applications/x', { body: {} })).status).toBe(
      401,
    );
  });
});

describe('E13 with fields it does not know', () => {
  it('ignores them, however deeply nested: not stored, not in the event', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await server.request('POST', '/api/admin/metrics/applications/deep', {
      ...admin(server),
      body: `{"description":"kept","extra":${deep}}`,
    });
    expect(res.status).toBe(202);
    const events = await server.request('GET', '/api/admin/events?type=application-created', admin(server));
    const event = events.body.events.find((e: any) => e.data.appName === 'deep');
    expect(event.data).toEqual({ appName: 'deep', description: 'kept' });
    const again = await server.request('POST', '/api/admin/metrics/applications/deep', {
      ...admin(server),
      body: { url: 'https://deep.example.com', unknown: true },
    });
    expect(again.status).toBe(202);
    const read = await server.request('GET', '/api/admin/metrics/applications/deep', admin(server));
    expect(read.body).toMatchObject({ description: 'kept', url: 'https://deep.example.com' });
  });
});

describe('applications reported by SDKs', () => {
  it('registering creates the application and shows the instance with its SDK version', async () => {
    const res = await server.request('POST', '/api/client/register', {
      token: clientToken,
      body: {
        appName: 'checkout',
        instanceId: 'pod-1',
        sdkVersion: 'unleash-client-node:6.12.1',
        strategies: ['default', 'flexibleRollout'],
        started: new Date().toISOString(),
        interval: 10000,
        platformName: 'node',
      },
    });
    expect(res.status).toBe(202);
    const read = await server.request('GET', '/api/admin/metrics/applications/checkout', admin(server));
    expect(read.status).toBe(200);
    expect(read.body.strategies).toEqual(['default', 'flexibleRollout']);
    expect(read.body.instances).toEqual([
      expect.objectContaining({
        instanceId: 'pod-1',
        environment: 'development',
        sdkVersion: 'unleash-client-node:6.12.1',
      }),
    ]);
    const list = await server.request('GET', '/api/admin/metrics/applications', admin(server));
    expect(list.body.applications.map((a: { appName: string }) => a.appName)).toContain('checkout');
    expect(list.body.total).toBe(list.body.applications.length);
  });

  it('refuses a registration without appName, or from a token that is not a client token', async () => {
    expect(
      (
        await server.request('POST', '/api/client/register', {
          token: clientToken,
          body: { instanceId: 'x' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await server.request('POST', '/api/client/register', {
          token: server.adminToken,
          body: { appName: 'x' },
        })
      ).status,
    ).toBe(403);
    expect((await server.request('POST', '/api/client/register', { body: { appName: 'x' } })).status).toBe(
      401,
    );
  });

  it('refuses an interval beyond int4 with 400 naming it, registering nothing', async () => {
    const res = await server.request('POST', '/api/client/register', {
      token: clientToken,
      body: { appName: 'huge-interval', instanceId: 'x', interval: 2147483648 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'ValidationError', details: [{ path: 'interval' }] });
    expect(
      (await server.request('GET', '/api/admin/metrics/applications/huge-interval', admin(server))).status,
    ).toBe(404);
  });

  it('metrics from applications that never registered make them, with their instances as reported', async () => {
    const app = (name: string) =>
      server.request('GET', `/api/admin/metrics/applications/${name}`, admin(server));
    const registered = await server.request('POST', '/api/client/register', {
      token: clientToken,
      body: { appName: 'till', instanceId: 'till-1', sdkVersion: 'unleash-client-go:4.1.0', interval: 15000 },
    });
    expect(registered.status).toBe(202);
    const createdBefore = await countEvents(server, 'application-created');
    const kiosks = ['kiosk-b', 'kiosk-a', 'kiosk-c'];
    for (const [n, appName] of kiosks.entries()) {
      const body = {
        appName,
        instanceId: `k${n}`,
        sdkVersion: `unleash-client-node:6.${n}.0`,
        bucket: bucket({ 'not-a-flag': { yes: 1, no: 0 } }),
      };
      expect((await postMetrics(server, clientToken, body)).status).toBe(202);
    }
    const till = {
      appName: 'till',
      instanceId: 'till-1',
      bucket: bucket({ 'not-a-flag': { yes: 1, no: 0 } }),
    };
    expect((await postMetrics(server, clientToken, till)).status).toBe(202);
    const page = await server.request('POST', '/api/frontend/client/metrics', {
      token: frontendToken,
      body: { appName: 'web-page', instanceId: 'tab', bucket: bucket({ 'not-a-flag': { yes: 1, no: 0 } }) },
    });
    expect(page.status).toBe(200);

    const seen = await eventually(
      () => app('web-page'),
      (r) => r.status === 200,
    );
    expect(seen.body.instances).toEqual([
      expect.objectContaining({ instanceId: 'tab', environment: 'development' }),
    ]);
    for (const [n, appName] of kiosks.entries()) {
      expect((await app(appName)).body.instances).toEqual([
        expect.objectContaining({ instanceId: `k${n}`, sdkVersion: `unleash-client-node:6.${n}.0` }),
      ]);
    }
    // What the instance registered stays: a report without an SDK version does not erase it.
    expect((await app('till')).body.instances).toEqual([
      expect.objectContaining({ instanceId: 'till-1', sdkVersion: 'unleash-client-go:4.1.0' }),
    ]);
    // One event per server-side application made, naming it; none for the frontend one.
    expect(await countEvents(server, 'application-created')).toBe(createdBefore + 3);
    const events = await server.request('GET', '/api/admin/events?type=application-created', admin(server));
    const named = events.body.events.slice(0, 3).map((e: { data: { appName: string } }) => e.data);
    expect(named.sort((a: any, b: any) => a.appName.localeCompare(b.appName))).toEqual(
      ['kiosk-a', 'kiosk-b', 'kiosk-c'].map((appName) => ({ appName })),
    );
  });

  it('deletes an application', async () => {
    expect(
      (await server.request('DELETE', '/api/admin/metrics/applications/checkout', admin(server))).status,
    ).toBe(200);
    expect(
      (await server.request('GET', '/api/admin/metrics/applications/checkout', admin(server))).status,
    ).toBe(404);
    expect(
      (await server.request('DELETE', '/api/admin/metrics/applications/checkout', admin(server))).status,
    ).toBe(404);
  });
});

describe('GET /api/admin/metrics/applications, a page at a time', () => {
  const list = async (query: string) => {
    const res = await server.request('GET', `/api/admin/metrics/applications?${query}`, admin(server));
    expect(res.status).toBe(200);
    return { names: res.body.applications.map((a: { appName: string }) => a.appName), total: res.body.total };
  };

  it('pages, searches and sorts; total counts every match', async () => {
    for (const name of ['page-c', 'page-a', 'PAGE-b', 'page_d', 'pageXe']) {
      expect((await e13(name, {})).status).toBe(202);
    }
    expect(await list('query=page-&limit=2')).toEqual({ names: ['PAGE-b', 'page-a'], total: 3 });
    expect(await list('query=page-&limit=2&offset=2')).toEqual({ names: ['page-c'], total: 3 });
    expect(await list('query=page-&offset=10')).toEqual({ names: [], total: 3 });
    expect(await list('query=page-&sortOrder=desc')).toEqual({
      names: ['page-c', 'page-a', 'PAGE-b'],
      total: 3,
    });
    expect(await list('query=page_&sortBy=createdAt')).toEqual({ names: ['page_d'], total: 1 });
    expect((await list('query=page&sortBy=createdAt&sortOrder=desc')).names[0]).toBe('pageXe');
    const all = await list('');
    expect(all.total).toBe(all.names.length);
    expect(all.names).toEqual(expect.arrayContaining(['page-a', 'pageXe', 'web']));
  });

  it('refuses a page longer than 1,000 or an unknown sort with 400', async () => {
    for (const query of ['limit=1001', 'limit=0', 'offset=-1', 'sortBy=strategies', 'sortOrder=up']) {
      const res = await server.request('GET', `/api/admin/metrics/applications?${query}`, admin(server));
      expect(res.status).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
  });
});
