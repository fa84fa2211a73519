import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { createUser, startTestServer, type TestServer } from '../../test/server.js';

const devToken = `default:development.${'1'.repeat(56)}`;
const prodToken = `default:production.${'2'.repeat(56)}`;
const allProjectsToken = `*:development.${'3'.repeat(56)}`;
const frontendToken = `default:development.${'4'.repeat(56)}`;
let server: TestServer;
let f: ReturnType<typeof flags>;

beforeAll(async () => {
  server = await startTestServer({
    INIT_CLIENT_API_TOKENS: `${devToken},${prodToken},${allProjectsToken}`,
    INIT_FRONTEND_API_TOKENS: frontendToken,
  });
  f = flags(server);
  await f.create('simple', { description: 'on in development' });
  await f.enable('simple', 'development');
  await f.create('constrained', { type: 'experiment', impressionData: true });
  await f.addStrategy('constrained', 'development', {
    name: 'flexibleRollout',
    title: 'Pilot',
    parameters: { rollout: '100' },
    constraints: [
      { contextName: 'userId', operator: 'IN', values: ['alice', 'bob'] },
      { contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['ALI', 'BO'], caseInsensitive: true },
      { contextName: 'userId', operator: 'IN', values: ['mallory'], inverted: true },
    ],
  });
  await f.addStrategy('constrained', 'development', { name: 'default', disabled: true });
  await f.enable('constrained', 'development');
  await f.create('never-on');
  await f.create('gone');
  await f.archive(['gone']);
  const segment = await f.createSegment({
    name: 'beta-users',
    constraints: [{ contextName: 'appName', operator: 'IN', values: ['beta-app'] }],
  });
  await f.create('segmented');
  await f.addStrategy('segmented', 'development', { name: 'default', segments: [segment.id] });
  await f.enable('segmented', 'development');
  await f.create('with-variants');
  await f.setVariants('with-variants', 'development', [
    {
      name: 'blue',
      weight: 500,
      weightType: 'variable',
      stickiness: 'userId',
      payload: { type: 'string', value: 'b' },
    },
    {
      name: 'red',
      weight: 500,
      weightType: 'variable',
      stickiness: 'userId',
      payload: { type: 'json', value: '{"x":1}' },
      overrides: [{ contextName: 'userId', values: ['vip'] }],
    },
  ]);
  await f.enable('with-variants', 'development');
  await server.request('POST', '/api/admin/projects', {
    token: server.adminToken,
    body: { id: 'other', name: 'Other' },
  });
  await flags(server, 'other').create('elsewhere');
  await f.tag('simple', 'simple', 'web');
});
afterAll(() => server.close());

const get = (url: string, token: string, headers: Record<string, string> = {}) =>
  server.request('GET', url, { token, headers });
const names = (body: { features: { name: string }[] }) => body.features.map((x) => x.name);

describe('GET /api/client/features', () => {
  it("serves the token's live features in its environment, in Unleash's shape", async () => {
    const res = await get('/api/client/features', devToken);
    expect(res.status).toBe(200);
    expect(res.headers['fetch-mode']).toBeUndefined();
    expect(res.body.version).toBe(2);
    expect(names(res.body)).toEqual(['constrained', 'never-on', 'segmented', 'simple', 'with-variants']);
    const simple = res.body.features.find((x: any) => x.name === 'simple');
    expect(simple).toMatchObject({
      name: 'simple',
      type: 'release',
      description: 'on in development',
      project: 'default',
      enabled: true,
      stale: false,
      impressionData: false,
      variants: [],
    });
    expect(simple.strategies).toEqual([
      expect.objectContaining({
        name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'default', groupId: 'simple' },
        constraints: [],
      }),
    ]);
    const constrained = res.body.features.find((x: any) => x.name === 'constrained');
    // Only what SDKs read: no id, title, sort order, empty segments, or switches that are off.
    expect(constrained.strategies).toEqual([
      {
        name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'default', groupId: 'constrained' },
        constraints: [
          { contextName: 'userId', operator: 'IN', values: ['alice', 'bob'] },
          {
            contextName: 'userId',
            operator: 'STR_STARTS_WITH',
            values: ['ALI', 'BO'],
            caseInsensitive: true,
          },
          { contextName: 'userId', operator: 'IN', values: ['mallory'], inverted: true },
        ],
        variants: [],
      },
    ]);
    expect(constrained).not.toHaveProperty('description');
    expect(res.body.features.find((x: any) => x.name === 'never-on').enabled).toBe(false);
    expect(res.body.meta).toMatchObject({ etag: res.headers.etag });
  });

  it('serves each environment its own state', async () => {
    const res = await get('/api/client/features', prodToken);
    expect(res.body.features.every((x: { enabled: boolean }) => !x.enabled)).toBe(true);
  });

  it('keeps to the token’s projects; filters narrow but never widen', async () => {
    expect(names((await get('/api/client/features?project=other', devToken)).body)).toEqual([]);
    expect(names((await get('/api/client/features', allProjectsToken)).body)).toContain('elsewhere');
    expect(names((await get('/api/client/features?project=other', allProjectsToken)).body)).toEqual([
      'elsewhere',
    ]);
    expect(names((await get('/api/client/features?namePrefix=si', devToken)).body)).toEqual(['simple']);
    expect(names((await get('/api/client/features?tag=simple:web', devToken)).body)).toEqual(['simple']);
  });

  it('sends segments to SDKs that know them and inlines them for older ones', async () => {
    const modern = await get('/api/client/features', devToken, { 'unleash-client-spec': '5.2.0' });
    const segmented = modern.body.features.find((x: any) => x.name === 'segmented');
    expect(segmented.strategies[0].segments).toHaveLength(1);
    expect(modern.body.segments).toEqual([
      {
        id: segmented.strategies[0].segments[0],
        name: 'beta-users',
        constraints: [expect.objectContaining({ contextName: 'appName' })],
      },
    ]);
    const old = await get('/api/client/features', devToken);
    expect(old.body.segments).toBeUndefined();
    const inlined = old.body.features.find((x: any) => x.name === 'segmented').strategies[0];
    expect(inlined.segments).toBeUndefined();
    expect(inlined.constraints).toEqual([
      expect.objectContaining({ contextName: 'appName', values: ['beta-app'] }),
    ]);
  });

  it('answers 304 for the current ETag and a new ETag after a change it can see', async () => {
    const first = await get('/api/client/features', devToken);
    const etag = String(first.headers.etag);
    const again = await get('/api/client/features', devToken, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    await createUser(server, 3);
    expect((await get('/api/client/features', devToken, { 'if-none-match': etag })).status).toBe(304);
    await f.enable('never-on', 'development');
    const changed = await get('/api/client/features', devToken, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body.features.find((x: any) => x.name === 'never-on').enabled).toBe(true);
    await f.disable('never-on', 'development');
  });

  it('drops archived features and brings revived ones back disabled', async () => {
    await f.archive(['simple']);
    expect(names((await get('/api/client/features', devToken)).body)).not.toContain('simple');
    expect((await get('/api/client/features/simple', devToken)).status).toBe(404);
    await f.revive(['simple']);
    const revived = await get('/api/client/features/simple', devToken);
    expect(revived.status).toBe(200);
    expect(revived.body.enabled).toBe(false);
    await f.enable('simple', 'development');
  });

  it('serves one feature by name, 404 for unknown or archived ones', async () => {
    const res = await get('/api/client/features/constrained', devToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'constrained',
      type: 'experiment',
      impressionData: true,
      enabled: true,
    });
    expect(res.headers.etag).toMatch(/^".+"$/);
    expect((await get('/api/client/features/gone', devToken)).status).toBe(404);
    expect((await get('/api/client/features/nope', devToken)).status).toBe(404);
  });

  it('needs a client token: 401 without or with an unknown one, 403 for other credentials', async () => {
    expect((await server.request('GET', '/api/client/features')).status).toBe(401);
    expect((await get('/api/client/features', `default:development.${'9'.repeat(56)}`)).status).toBe(401);
    expect((await get('/api/client/features', server.adminToken)).status).toBe(403);
    expect((await get('/api/client/features', frontendToken)).status).toBe(403);
    const user = await createUser(server, 1);
    expect((await get('/api/client/features', user.pat)).status).toBe(403);
  });
});

describe('GET /api/frontend', () => {
  const front = (query: string, token = frontendToken) => get(`/api/frontend${query}`, token);

  it('lists only the flags that are on for the context, with their variants', async () => {
    const res = await front('?userId=alice');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const byName = Object.fromEntries(res.body.toggles.map((t: any) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(['constrained', 'simple', 'with-variants']);
    expect(byName.simple).toEqual({
      name: 'simple',
      enabled: true,
      variant: { name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true },
      impressionData: false,
    });
    expect(byName.constrained.impressionData).toBe(true);
    expect(['blue', 'red']).toContain(byName['with-variants'].variant.name);
    expect((await front('?userId=carol')).body.toggles.map((t: any) => t.name)).not.toContain('constrained');
  });

  it('applies overrides, segments and properties from the query', async () => {
    const vip = await front('?userId=vip');
    const variant = vip.body.toggles.find((t: any) => t.name === 'with-variants').variant;
    expect(variant).toEqual({
      name: 'red',
      enabled: true,
      feature_enabled: true,
      featureEnabled: true,
      payload: { type: 'json', value: '{"x":1}' },
    });
    expect((await front('?appName=beta-app')).body.toggles.map((t: any) => t.name)).toContain('segmented');
    expect((await front('?appName=other-app')).body.toggles.map((t: any) => t.name)).not.toContain(
      'segmented',
    );
  });

  it('picks the same variant for the same user every time', async () => {
    const pick = async () =>
      (await front('?userId=user-123')).body.toggles.find((t: any) => t.name === 'with-variants').variant
        .name;
    const first = await pick();
    for (let i = 0; i < 5; i++) expect(await pick()).toBe(first);
  });

  it('takes the context from a POST body too', async () => {
    const res = await server.request('POST', '/api/frontend', {
      token: frontendToken,
      body: { context: { userId: 'bob' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.toggles.map((t: any) => t.name)).toContain('constrained');
  });

  it('needs a frontend token', async () => {
    expect((await server.request('GET', '/api/frontend')).status).toBe(401);
    expect((await front('', devToken)).status).toBe(403);
    expect((await front('', server.adminToken)).status).toBe(403);
  });
});
