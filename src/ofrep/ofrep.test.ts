import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { startTestServer, type TestServer } from '../../test/server.js';

const frontendToken = `default:development.${'7'.repeat(56)}`;
const clientToken = `default:development.${'8'.repeat(56)}`;
const productionToken = `default:production.${'9'.repeat(56)}`;
let server: TestServer;
let f: ReturnType<typeof flags>;

const variant = (name: string, payload?: { type: string; value: string }) => ({
  name,
  weight: 1000,
  weightType: 'variable',
  stickiness: 'default',
  ...(payload ? { payload } : {}),
});

beforeAll(async () => {
  server = await startTestServer({
    INIT_FRONTEND_API_TOKENS: `${frontendToken},${productionToken}`,
    INIT_CLIENT_API_TOKENS: clientToken,
  });
  f = flags(server);
  await f.create('plain');
  await f.enable('plain', 'development');
  await f.create('for-alice');
  await f.addStrategy('for-alice', 'development', {
    name: 'default',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }],
  });
  await f.enable('for-alice', 'development');
  await f.create('off');
  const payloads: [string, { type: string; value: string } | undefined][] = [
    ['text', { type: 'string', value: 'hello' }],
    ['count', { type: 'number', value: '42.5' }],
    ['settings', { type: 'json', value: '{"colour":"blue","size":3}' }],
    ['list', { type: 'csv', value: 'a,b' }],
    ['named', undefined],
  ];
  for (const [name, payload] of payloads) {
    await f.create(name);
    await f.setVariants(name, 'development', [variant('only', payload)]);
    await f.enable(name, 'development');
  }
  await f.create('split');
  await f.setVariants('split', 'development', [variant('a'), variant('b')]);
  await f.enable('split', 'development');
  await f.create('overridden');
  await f.setVariants('overridden', 'development', [
    { ...variant('vip'), overrides: [{ contextName: 'userId', values: ['alice'] }] },
    variant('rest'),
  ]);
  await f.enable('overridden', 'development');
  await server.request('POST', '/api/admin/projects', {
    token: server.adminToken,
    body: { id: 'other', name: 'Other' },
  });
  await flags(server, 'other').create('elsewhere');
  await flags(server, 'other').enable('elsewhere', 'development');
});
afterAll(() => server.close());

const one = (key: string, body: unknown = { context: { targetingKey: 'bob' } }, headers = {}) =>
  server.request('POST', `/ofrep/v1/evaluate/flags/${key}`, { token: frontendToken, body, headers });
const bulk = (
  body: unknown = { context: { targetingKey: 'bob' } },
  headers: Record<string, string> = {},
  token = frontendToken,
) => server.request('POST', '/ofrep/v1/evaluate/flags', { token, body, headers });

describe('POST /ofrep/v1/evaluate/flags/{key}', () => {
  it('answers a flag without variants as a boolean, with the reason and metadata', async () => {
    const on = await one('plain');
    expect(on.status).toBe(200);
    expect(on.headers['content-type']).toMatch(/^application\/json/);
    expect(on.body).toEqual({
      key: 'plain',
      value: true,
      variant: 'on',
      reason: 'TARGETING_MATCH',
      metadata: { featureEnabled: true, variantEnabled: false, project: 'default', impressionData: false },
    });
    expect((await one('off')).body).toMatchObject({ value: false, variant: 'off', reason: 'DISABLED' });
    expect((await one('for-alice')).body).toMatchObject({ value: false, variant: 'off', reason: 'DEFAULT' });
    const alice = await one('for-alice', { context: { targetingKey: 'alice' } });
    expect(alice.body).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    // userId wins over targetingKey.
    const both = await one('for-alice', { context: { targetingKey: 'bob', userId: 'alice' } });
    expect(both.body.value).toBe(true);
  });

  it("answers a variant's payload in its own type, and SPLIT or TARGETING_MATCH for how it was picked", async () => {
    expect((await one('text')).body).toMatchObject({ value: 'hello', variant: 'only', reason: 'SPLIT' });
    expect((await one('count')).body).toMatchObject({ value: 42.5, variant: 'only' });
    expect((await one('settings')).body.value).toEqual({ colour: 'blue', size: 3 });
    expect((await one('list')).body.value).toBe('a,b');
    expect((await one('named')).body).toMatchObject({ value: 'only', variant: 'only' });
    expect((await one('split')).body.reason).toBe('SPLIT');
    const vip = await one('overridden', { context: { targetingKey: 'alice' } });
    expect(vip.body).toMatchObject({ value: 'vip', variant: 'vip', reason: 'TARGETING_MATCH' });
  });

  it('answers 404 FLAG_NOT_FOUND for a flag the token does not get', async () => {
    for (const key of ['nothing-here', 'elsewhere']) {
      const res = await one(key);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ key, errorCode: 'FLAG_NOT_FOUND', errorDetails: expect.any(String) });
    }
  });

  it('answers 400 INVALID_CONTEXT for a context that is not an object; no context is an empty one', async () => {
    for (const body of [{ context: 'alice' }, { context: [1] }, [1]]) {
      const res = await one('plain', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        key: 'plain',
        errorCode: 'INVALID_CONTEXT',
        errorDetails: expect.any(String),
      });
    }
    expect((await one('plain', {})).body.value).toBe(true);
  });

  it('takes frontend and client tokens, in Authorization (Bearer or not) or X-API-Key; 401 without, 403 for an admin token', async () => {
    const ask = (headers: Record<string, string>) =>
      server.request('POST', '/ofrep/v1/evaluate/flags/plain', { body: { context: {} }, headers });
    expect((await ask({ authorization: `Bearer ${frontendToken}` })).status).toBe(200);
    expect((await ask({ authorization: clientToken })).status).toBe(200);
    expect((await ask({ 'x-api-key': clientToken })).status).toBe(200);
    expect((await ask({})).status).toBe(401);
    expect((await ask({ 'x-api-key': 'default:development.nope' })).status).toBe(401);
    expect((await ask({ authorization: server.adminToken })).status).toBe(403);
    // X-API-Key is read on the OpenFeature paths only.
    const elsewhere = await server.request('GET', '/api/frontend', {
      headers: { 'x-api-key': frontendToken },
    });
    expect(elsewhere.status).toBe(401);
  });

  it("evaluates in the token's environment", async () => {
    const res = await server.request('POST', '/ofrep/v1/evaluate/flags/plain', {
      token: productionToken,
      body: { context: {} },
    });
    expect(res.body).toMatchObject({ value: false, reason: 'DISABLED' });
  });
});

describe("the API's own errors on the OFREP paths", () => {
  it('answers a body that is not JSON and a refused query value with the error body of the API, not 500', async () => {
    const asked: [string, string][] = [
      ['/ofrep/v1/evaluate/flags/plain', '{"context":'],
      ['/ofrep/v1/evaluate/flags', '{"context":'],
      ['/ofrep/v1/evaluate/flags?flagConfigEtag=%00', '{}'],
    ];
    for (const [url, body] of asked) {
      const res = await server.request('POST', url, { token: frontendToken, body });
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({
        id: expect.any(String),
        name: 'ValidationError',
        message: expect.any(String),
      });
    }
  });
});

describe('POST /ofrep/v1/evaluate/flags', () => {
  it("lists every flag of the token's projects, off ones too, in name order", async () => {
    const res = await bulk();
    expect(res.status).toBe(200);
    const keys = res.body.flags.map((flag: { key: string }) => flag.key);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toContain('off');
    expect(keys).not.toContain('elsewhere');
    const byKey = Object.fromEntries(res.body.flags.map((flag: { key: string }) => [flag.key, flag]));
    expect(byKey.off).toMatchObject({ value: false, reason: 'DISABLED' });
    expect(byKey.text).toMatchObject({ value: 'hello', variant: 'only' });
    const single = await one('settings');
    expect(byKey.settings).toEqual(single.body);
  });

  it('sends an ETag and answers 304 to it while the answer is the same; a change makes a new one', async () => {
    const first = await bulk();
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await bulk(undefined, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const alice = await bulk({ context: { targetingKey: 'alice' } }, { 'if-none-match': etag });
    expect(alice.status).toBe(200);
    await f.enable('off', 'development');
    const changed = await bulk(undefined, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    await f.disable('off', 'development');
    expect((await bulk(undefined, { 'if-none-match': etag })).status).toBe(304);
    // What providers send after a change notification is accepted.
    const query = await server.request(
      'POST',
      '/ofrep/v1/evaluate/flags?flagConfigEtag=x&flagConfigLastModified=1',
      {
        token: frontendToken,
        body: { context: {} },
      },
    );
    expect(query.status).toBe(200);
  });

  it('answers 400 INVALID_CONTEXT without a key', async () => {
    const res = await bulk({ context: 5 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorCode: 'INVALID_CONTEXT', errorDetails: expect.any(String) });
  });

  it('lets a page of an allowed origin call it: preflight, then the ETag readable', async () => {
    const preflight = await server.request('OPTIONS', '/ofrep/v1/evaluate/flags', {
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization,x-api-key,if-none-match',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/X-API-Key/);
    const res = await bulk(undefined, { origin: 'https://app.example' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toBe('ETag');
  });
});
