import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { bucket, currentHour, eventually, rawMetrics } from '../../test/metrics.js';
import { startTestServer, type TestServer } from '../../test/server.js';

const frontendToken = `default:development.${'4'.repeat(56)}`;
const clientToken = `default:development.${'1'.repeat(56)}`;
let server: TestServer;
let f: ReturnType<typeof flags>;

beforeAll(async () => {
  server = await startTestServer({
    INIT_FRONTEND_API_TOKENS: frontendToken,
    INIT_CLIENT_API_TOKENS: clientToken,
  });
  f = flags(server);
  await f.create('simple');
  await f.enable('simple', 'development');
  await f.create('for-alice');
  await f.addStrategy('for-alice', 'development', {
    name: 'default',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }],
  });
  await f.enable('for-alice', 'development');
  await f.create('coloured');
  await f.setVariants('coloured', 'development', [
    { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' },
  ]);
  await f.enable('coloured', 'development');
  await f.create('off');
  await server.request('POST', '/api/admin/projects', {
    token: server.adminToken,
    body: { id: 'other', name: 'Other' },
  });
  await flags(server, 'other').create('elsewhere');
  await flags(server, 'other').enable('elsewhere', 'development');
});
afterAll(() => server.close());

const front = (query = '', headers: Record<string, string> = {}, token = frontendToken) =>
  server.request('GET', `/api/frontend${query}`, { token, headers });
const one = (name: string, query = '', token = frontendToken) =>
  server.request('GET', `/api/frontend/features/${name}${query}`, { token });
const names = (body: { toggles: { name: string }[] }) => body.toggles.map((t) => t.name).sort();

describe('ETag on GET /api/frontend', () => {
  it('answers 304 without a body while the answer for that context is the same', async () => {
    const first = await front('?userId=alice&sessionId=1');
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await front('?userId=alice&sessionId=1', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await front('?userId=alice&sessionId=1', { 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await front('?userId=alice&sessionId=1', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('differs exactly when the answers differ', async () => {
    const alice = await front('?userId=alice&sessionId=1');
    const carol = await front('?userId=carol&sessionId=1');
    const dave = await front('?userId=dave&sessionId=2');
    expect(names(alice.body)).toContain('for-alice');
    expect(names(carol.body)).not.toContain('for-alice');
    expect(alice.headers.etag).not.toBe(carol.headers.etag);
    expect(carol.text).toBe(dave.text);
    expect(carol.headers.etag).toBe(dave.headers.etag);
    const stale = await front('?userId=carol&sessionId=1', { 'if-none-match': String(alice.headers.etag) });
    expect(stale.status).toBe(200);
  });

  it('changes when a flag is changed through the admin API', async () => {
    const before = await front('?userId=carol');
    const etag = String(before.headers.etag);
    await f.enable('off', 'development');
    const after = await front('?userId=carol', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(names(after.body)).toContain('off');
    await f.disable('off', 'development');
    const back = await front('?userId=carol', { 'if-none-match': etag });
    expect(back.status).toBe(304);
  });

  it('is the same again when a flag is changed and changed back, and follows its segment', async () => {
    const before = await front('?userId=alice');
    const etag = String(before.headers.etag);
    const patch = (value: string) =>
      server.request('PATCH', '/api/admin/projects/default/features/for-alice', {
        token: server.adminToken,
        body: [{ op: 'replace', path: '/description', value }],
      });
    expect((await patch('changed')).status).toBe(200);
    expect((await front('?userId=alice', { 'if-none-match': etag })).status).toBe(304);
    const segment = await server.request('POST', '/api/admin/segments', {
      token: server.adminToken,
      body: { name: 'alices', constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }] },
    });
    expect(segment.status).toBe(201);
    await f.create('segmented');
    await f.addStrategy('segmented', 'development', { name: 'default', segments: [segment.body.id] });
    await f.enable('segmented', 'development');
    expect(names((await front('?userId=alice')).body)).toContain('segmented');
    const moved = await server.request('PUT', `/api/admin/segments/${segment.body.id}`, {
      token: server.adminToken,
      body: { name: 'alices', constraints: [{ contextName: 'userId', operator: 'IN', values: ['bob'] }] },
    });
    expect(moved.status).toBe(204);
    expect(names((await front('?userId=alice')).body)).not.toContain('segmented');
    expect(names((await front('?userId=bob')).body)).toContain('segmented');
  });

  it('is sent with POST answers too, which are never 304', async () => {
    const post = (headers: Record<string, string> = {}) =>
      server.request('POST', '/api/frontend', {
        token: frontendToken,
        headers,
        body: { context: { userId: 'alice', sessionId: '1' } },
      });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers.etag).toBe((await front('?userId=alice&sessionId=1')).headers.etag);
    const again = await post({ 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(200);
    expect(names(again.body)).toContain('for-alice');
  });
});

describe('GET /api/frontend/features/:featureName', () => {
  it('answers the flag as the list has it when it is on for the context', async () => {
    const list = await front('?userId=alice&sessionId=1');
    for (const name of ['simple', 'for-alice', 'coloured']) {
      const res = await one(name, '?userId=alice&sessionId=1');
      expect(res.status, name).toBe(200);
      expect(res.body).toEqual(list.body.toggles.find((t: { name: string }) => t.name === name));
    }
    expect((await one('coloured')).body.variant).toEqual({
      name: 'blue',
      enabled: true,
      feature_enabled: true,
      featureEnabled: true,
    });
  });

  it('answers 404 when it is off for the context, off, archived, unknown or in another project', async () => {
    for (const [name, query] of [
      ['for-alice', '?userId=carol'],
      ['off', ''],
      ['unknown-flag', ''],
      ['elsewhere', ''],
    ]) {
      const res = await one(name!, query);
      expect(res.status, name).toBe(404);
      expect(res.body.name).toBe('NotFoundError');
    }
    await f.create('archived-one');
    await f.enable('archived-one', 'development');
    expect((await one('archived-one')).status).toBe(200);
    await f.archive(['archived-one']);
    expect((await one('archived-one')).status).toBe(404);
  });

  it('needs a frontend token: 401 without, 403 for other kinds', async () => {
    expect((await server.request('GET', '/api/frontend/features/simple')).status).toBe(401);
    expect((await one('simple', '', clientToken)).status).toBe(403);
    expect((await one('simple', '', server.adminToken)).status).toBe(403);
  });
});

describe('what unleash-proxy-client sends besides the flags', () => {
  it('POST /api/frontend/client/metrics (its payload as sent) answers 200 and is counted', async () => {
    const res = await server.request('POST', '/api/frontend/client/metrics', {
      token: frontendToken,
      headers: { 'unleash-sdk': 'unleash-js-sdk:3.8.2', 'unleash-connection-id': 'c1' },
      body: {
        appName: 'web',
        instanceId: 'browser',
        bucket: bucket({ simple: { yes: 2, no: 1, variants: {} } }),
        impactMetrics: [],
      },
    });
    expect(res.status).toBe(200);
    const raw = await eventually(
      () => rawMetrics(server, 'simple'),
      (r) => r.body.data.some((d: { appName: string; yes: number }) => d.appName === 'web' && d.yes === 2),
    );
    expect(raw.body.data.filter((d: { appName: string }) => d.appName === 'web').at(-1)).toMatchObject({
      environment: 'development',
      timestamp: currentHour(),
      yes: 2,
      no: 1,
    });
  });

  it('POST /api/frontend/client/register answers 200', async () => {
    const res = await server.request('POST', '/api/frontend/client/register', {
      token: frontendToken,
      body: {
        appName: 'web',
        instanceId: 'browser',
        interval: 1000,
        started: new Date().toISOString(),
        strategies: [],
      },
    });
    expect(res.status).toBe(200);
  });
});
