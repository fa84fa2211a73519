import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import {
  countEvents,
  createUser,
  startTestServer,
  type TestServer,
  type TestUser,
  writeDirectly,
} from '../../test/server.js';
import { rolloutBuckets } from '../client/evaluation/murmur3.js';

let server: TestServer;
let viewer: TestUser;
let segmentId: number;
const CLIENT = `default:development.${'9'.repeat(56)}`;

const play = (body: unknown, token = server.adminToken) =>
  server.request('POST', '/api/admin/playground', { token, body });
const advanced = (body: unknown, token = server.adminToken) =>
  server.request('POST', '/api/admin/playground/advanced', { token, body });

async function playOne(name: string, context: object, environment = 'development') {
  const res = await play({ environment, projects: ['default'], context: { appName: 'test', ...context } });
  expect(res.status, res.text).toBe(200);
  return res.body.features.find((x: { name: string }) => x.name === name);
}

/** The first user id whose rollout bucket (in `group`) is at most (or above) `percent`. */
function userIn(group: string, percent: number, inside: boolean): string {
  for (let i = 0; ; i++) {
    const id = `user-${i}`;
    if (rolloutBuckets(group)(id) <= percent === inside) return id;
  }
}

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: CLIENT });
  viewer = await createUser(server, 3);
  const f = flags(server);
  const segment = await f.createSegment({
    name: 'beta-users',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice', 'bob'] }],
  });
  segmentId = segment.id;
  await f.create('constrained');
  await f.addStrategy('constrained', 'development', {
    name: 'default',
    title: 'Only in Europe',
    constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
  });
  await f.enable('constrained', 'development');
  await f.create('segmented');
  await f.addStrategy('segmented', 'development', { name: 'default', segments: [segmentId] });
  await f.enable('segmented', 'development');
  await f.create('rollout');
  await f.addStrategy('rollout', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '40', stickiness: 'userId', groupId: 'rollout' },
  });
  await f.enable('rollout', 'development');
  await f.create('switched-off');
  await f.addStrategy('switched-off', 'development', { name: 'default' });
  await f.create('parent');
  await f.create('child');
  await f.enable('child', 'development');
  await f.addDependency('child', { feature: 'parent' });
  await f.create('variants');
  await f.setVariants('variants', 'development', [
    {
      name: 'one',
      weight: 1000,
      weightType: 'variable',
      stickiness: 'default',
      payload: { type: 'string', value: '1' },
    },
  ]);
  await f.enable('variants', 'development');
  await f.create('strategy-variants');
  await f.addStrategy('strategy-variants', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '100' },
    variants: [{ name: 'from-strategy', weight: 1000, weightType: 'variable', stickiness: 'default' }],
  });
  await f.enable('strategy-variants', 'development');
  // A custom strategy type, as a state import brings one.
  await writeDirectly(server, "INSERT INTO strategies (name, title) VALUES ('custom', 'Custom')");
  await f.create('custom');
  await f.addStrategy('custom', 'development', { name: 'custom' });
  await f.addStrategy('custom', 'development', { name: 'default', disabled: true });
  await f.enable('custom', 'development');
});
afterAll(() => server.close());

describe('POST /api/admin/playground', () => {
  it('answers every live feature of the projects with the input, for any signed-in user', async () => {
    const body = { environment: 'development', projects: '*', context: { appName: 'test', userId: 'alice' } };
    const events = await countEvents(server);
    const res = await play(body, viewer.pat);
    expect(res.status).toBe(200);
    expect(res.body.input).toEqual(body);
    expect(res.body.features.map((x: { name: string }) => x.name)).toEqual([
      'child',
      'constrained',
      'custom',
      'parent',
      'rollout',
      'segmented',
      'strategy-variants',
      'switched-off',
      'variants',
    ]);
    expect(await countEvents(server)).toBe(events);
    const none = await play({ ...body, projects: ['no-such-project'] });
    expect(none.body.features).toEqual([]);
  });

  it('a failing constraint: the strategy and the feature are off, each constraint with its result', async () => {
    const off = await playOne('constrained', { region: 'us' });
    expect(off).toMatchObject({
      name: 'constrained',
      projectId: 'default',
      isEnabled: false,
      isEnabledInCurrentEnvironment: true,
      hasUnsatisfiedDependency: false,
      variant: { name: 'disabled', enabled: false, feature_enabled: false },
      strategies: { result: false },
    });
    const [strategy] = off.strategies.data;
    expect(strategy).toMatchObject({
      name: 'default',
      title: 'Only in Europe',
      disabled: false,
      parameters: {},
      result: { enabled: false, evaluationStatus: 'complete' },
      constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'], result: false }],
      segments: [],
    });
    expect(strategy.links.edit).toBe(
      `/projects/default/features/constrained/strategies/edit?environmentId=development&strategyId=${strategy.id}`,
    );
    // The custom field may come at the top of the context or in `properties`.
    const on = await playOne('constrained', { properties: { region: 'eu' } });
    expect(on.isEnabled).toBe(true);
    expect(on.strategies.data[0].constraints[0].result).toBe(true);
    expect(on.variant).toEqual({
      name: 'disabled',
      enabled: false,
      feature_enabled: true,
      featureEnabled: true,
    });
  });

  it('a failing segment: the segment with its constraints and result', async () => {
    const off = await playOne('segmented', { userId: 'carol' });
    expect(off.isEnabled).toBe(false);
    expect(off.strategies.data[0].segments).toEqual([
      {
        id: segmentId,
        name: 'beta-users',
        result: false,
        constraints: [
          expect.objectContaining({ contextName: 'userId', values: ['alice', 'bob'], result: false }),
        ],
      },
    ]);
    expect((await playOne('segmented', { userId: 'bob' })).strategies.data[0].segments[0].result).toBe(true);
  });

  it('a gradual rollout: in for users in the rollout, out for the others, as SDKs decide', async () => {
    expect((await playOne('rollout', { userId: userIn('rollout', 40, true) })).isEnabled).toBe(true);
    const out = await playOne('rollout', { userId: userIn('rollout', 40, false) });
    expect(out.isEnabled).toBe(false);
    expect(out.strategies.data[0].result).toEqual({ enabled: false, evaluationStatus: 'complete' });
  });

  it('a disabled environment: off, with the strategies still evaluated', async () => {
    const res = await playOne('switched-off', {});
    expect(res).toMatchObject({
      isEnabled: false,
      isEnabledInCurrentEnvironment: false,
      strategies: { result: true },
    });
    expect(res.strategies.data[0].result).toEqual({ enabled: true, evaluationStatus: 'complete' });
  });

  it('an unsatisfied dependency: the child is off while its parent is', async () => {
    const child = await playOne('child', {});
    expect(child).toMatchObject({
      isEnabled: false,
      isEnabledInCurrentEnvironment: true,
      hasUnsatisfiedDependency: true,
      strategies: { result: true },
    });
    await flags(server).enable('parent', 'development');
    expect(await playOne('child', {})).toMatchObject({ isEnabled: true, hasUnsatisfiedDependency: false });
    await flags(server).disable('parent', 'development');
  });

  it("variants: the feature's, or the deciding strategy's", async () => {
    const feature = await playOne('variants', { userId: 'u1' });
    expect(feature.variant).toEqual({
      name: 'one',
      enabled: true,
      payload: { type: 'string', value: '1' },
      feature_enabled: true,
    });
    expect(feature.variants).toEqual([expect.objectContaining({ name: 'one', weight: 1000 })]);
    const strategy = await playOne('strategy-variants', { userId: 'u1' });
    expect(strategy.variant).toMatchObject({ name: 'from-strategy', enabled: true, feature_enabled: true });
    expect(strategy.variants).toEqual([expect.objectContaining({ name: 'from-strategy' })]);
    expect(strategy.strategies.data[0].result).toMatchObject({
      enabled: true,
      evaluationStatus: 'complete',
      variant: { name: 'from-strategy', enabled: true },
      variants: [expect.objectContaining({ name: 'from-strategy' })],
    });
  });

  it('what this server cannot evaluate is `unknown`: a custom strategy (incomplete), a disabled one (unevaluated)', async () => {
    const res = await playOne('custom', {});
    expect(res.isEnabled).toBe(false);
    expect(res.strategies.result).toBe('unknown');
    expect(res.strategies.data.map((s: { result: unknown }) => s.result)).toEqual([
      { enabled: 'unknown', evaluationStatus: 'incomplete' },
      { enabled: 'unknown', evaluationStatus: 'unevaluated' },
    ]);
    expect(res.strategies.data[1].disabled).toBe(true);
  });

  it('validates the request: 400 with details; 401 without credentials; 403 for SDK tokens; 415', async () => {
    const bad = async (body: unknown, path: string) => {
      const res = await play(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
      expect(JSON.stringify(res.body.details)).toContain(path);
    };
    await bad({ environment: 'development', context: {} }, 'appName');
    await bad({ environment: 'development', context: { appName: '' } }, 'appName');
    await bad(
      { environment: 'development', context: { appName: 'a', currentTime: 'yesterday' } },
      'currentTime',
    );
    await bad({ environment: 'development', context: { appName: 'a', userId: 5 } }, 'userId');
    await bad({ environment: 'development', context: { appName: 'a', properties: { x: 1 } } }, 'properties');
    await bad({ context: { appName: 'a' } }, 'environment');
    await bad({ environment: 'nowhere', context: { appName: 'a' } }, 'environment');
    await bad({ environment: 'development', projects: 'all', context: { appName: 'a' } }, 'projects');
    const body = { environment: 'development', context: { appName: 'a' } };
    expect((await play(body, '')).status).toBe(401);
    expect((await play(body, CLIENT)).status).toBe(403);
    const text = await server.request('POST', '/api/admin/playground', {
      token: server.adminToken,
      body: JSON.stringify(body),
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
  });
});

describe('POST /api/admin/playground/advanced', () => {
  it('evaluates every environment and every combination of comma-separated values', async () => {
    const body = {
      environments: ['development', 'production'],
      projects: ['default'],
      context: { appName: 'test', userId: 'alice, carol', properties: { region: 'eu,us' } },
    };
    const res = await advanced(body, viewer.pat);
    expect(res.status, res.text).toBe(200);
    expect(res.body.input).toEqual(body);
    expect(res.body).not.toHaveProperty('warnings');
    const segmented = res.body.features.find((x: { name: string }) => x.name === 'segmented');
    expect(Object.keys(segmented.environments)).toEqual(['development', 'production']);
    const dev = segmented.environments.development;
    expect(dev.map((e: { context: object }) => e.context)).toEqual([
      { appName: 'test', userId: 'alice', region: 'eu' },
      { appName: 'test', userId: 'alice', region: 'us' },
      { appName: 'test', userId: 'carol', region: 'eu' },
      { appName: 'test', userId: 'carol', region: 'us' },
    ]);
    expect(dev.map((e: { isEnabled: boolean }) => e.isEnabled)).toEqual([true, true, false, false]);
    expect(dev[0]).toMatchObject({ name: 'segmented', environment: 'development', projectId: 'default' });
    const constrained = res.body.features.find((x: { name: string }) => x.name === 'constrained');
    expect(constrained.environments.development.map((e: { isEnabled: boolean }) => e.isEnabled)).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(
      constrained.environments.production.every(
        (e: { isEnabledInCurrentEnvironment: boolean }) => !e.isEnabledInCurrentEnvironment,
      ),
    ).toBe(true);
  });

  it('leaves out custom top-level fields that are not text, and says so', async () => {
    const res = await advanced({
      environments: ['development'],
      context: { appName: 'test', region: 'eu', flag: true, nested: { a: 1 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual({ invalidContextProperties: ['flag', 'nested'] });
    const constrained = res.body.features.find((x: { name: string }) => x.name === 'constrained');
    expect(constrained.environments.development[0].context).toEqual({ appName: 'test', region: 'eu' });
  });

  it('refuses too many evaluations and unknown environments (400), and callers as the playground', async () => {
    const many = Array.from({ length: 60 }, (_, i) => `u${i}`).join(',');
    const tooMany = await advanced({
      environments: ['development', 'production'],
      context: { appName: 'test', userId: many, sessionId: many },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain('15000');
    // Bounded even when no feature would be evaluated: the contexts alone would be too many.
    const hundred = Array.from({ length: 100 }, (_, i) => `v${i}`).join(',');
    const contexts = await advanced({
      environments: ['development'],
      projects: ['no-such-project'],
      context: { appName: hundred, userId: hundred, sessionId: hundred },
    });
    expect(contexts.status).toBe(400);
    const unknown = await advanced({ environments: ['development', 'nowhere'], context: { appName: 'a' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([expect.objectContaining({ path: 'environments.1' })]);
    expect((await advanced({ environments: [], context: { appName: 'a' } })).status).toBe(400);
    expect((await advanced({ environments: ['development'], context: { appName: 'a' } }, '')).status).toBe(
      401,
    );
  });

  it('refuses a context that multiplies into too much work within milliseconds, and /health answers meanwhile', async () => {
    // 2 × 7 × 10 × 100 = 14,000 combinations of about 1,000 fields: each field within its limit.
    const context: Record<string, string> = {
      appName: 'a,b',
      userId: 'u0,u1,u2,u3,u4,u5,u6',
      sessionId: Array.from({ length: 10 }, (_, i) => `s${i}`).join(','),
      region: Array.from({ length: 100 }, (_, i) => `r${i}`).join(','),
    };
    for (let i = 0; i < 996; i++) context[`field${i}`] = 'x';
    const started = Date.now();
    const [res, health] = await Promise.all([
      advanced({ environments: ['development'], projects: [], context }, viewer.pat),
      server.request('GET', '/health'),
    ]);
    expect(Date.now() - started).toBeLessThan(500);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ name: 'ValidationError', details: [{ path: 'context' }] });
    expect(res.body.message).toContain('14000 combinations of 1000 fields');
    expect(res.body.message).toContain('100000 allowed');
    expect(health.status).toBe(200);
    // With features to evaluate, the same.
    const all = await advanced({ environments: ['development'], context }, viewer.pat);
    expect(all.status).toBe(400);
    // More combinations than a number holds: said as such.
    const thousand = Array.from({ length: 1000 }, (_, i) => `${i}`).join(',');
    const endless = Object.fromEntries(Array.from({ length: 110 }, (_, i) => [`f${i}`, thousand]));
    const beyond = await advanced({ environments: ['development'], context: { appName: 'a', ...endless } });
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toContain(
      `makes more than ${Number.MAX_SAFE_INTEGER} combinations of 111 fields`,
    );
  });

  it('refuses an answer that would repeat a long context for every evaluation', async () => {
    const long = 'x'.repeat(9_000);
    const properties = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, long]));
    const res = await advanced(
      { environments: ['development', 'production'], context: { appName: 'a,b,c,d,e,f,g,h', properties } },
      viewer.pat,
    );
    expect(res.status, res.text).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'context' })]);
    expect(res.body.message).toContain('10000000 allowed');
  });

  it('answers a large request within the limits', async () => {
    const values = (prefix: string) => Array.from({ length: 10 }, (_, i) => `${prefix}${i}`).join(',');
    const context: Record<string, string> = {
      appName: 'test',
      userId: values('u'),
      sessionId: values('s'),
      region: values('r'),
    };
    for (let i = 0; i < 46; i++) context[`field${i}`] = `value${i}`;
    const res = await advanced({ environments: ['development'], projects: ['default'], context }, viewer.pat);
    expect(res.status, res.text).toBe(200);
    const constrained = res.body.features.find((x: { name: string }) => x.name === 'constrained');
    const dev = constrained.environments.development;
    expect(dev).toHaveLength(1000);
    expect(Object.keys(dev[0].context)).toHaveLength(50);
    expect(dev[999].context).toMatchObject({
      userId: 'u9',
      sessionId: 's9',
      region: 'r9',
      field45: 'value45',
    });
    expect(dev.filter((e: { isEnabled: boolean }) => e.isEnabled)).toHaveLength(0);
  });

  it('the largest answers allowed are made a slice at a time: the event loop is never held long', async () => {
    const values = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(',');
    // 1,500 combinations of 50 fields, for every feature of the project: over 13,000 evaluations.
    const context: Record<string, string> = {
      appName: 'test',
      userId: values('u', 15),
      sessionId: values('s', 100),
    };
    for (let i = 0; i < 47; i++) context[`field${i}`] = `value${i}`;
    const body = JSON.stringify({ environments: ['development'], projects: ['default'], context });
    // Once first: the route's schemas are compiled on its first request, which is no evaluation.
    expect((await advanced({ environments: ['development'], context: { appName: 'warm' } })).status).toBe(
      200,
    );
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    let answered = false;
    let longest = 0;
    const started = performance.now();
    // How long the event loop goes without a turn while the answer is made and sent.
    const watching = (async () => {
      for (let last = performance.now(); !answered; ) {
        await new Promise((resolve) => setImmediate(resolve));
        longest = Math.max(longest, performance.now() - last);
        last = performance.now();
      }
    })();
    const { status, length } = await new Promise<{ status: number; length: number }>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/admin/playground/advanced',
          method: 'POST',
          headers: { authorization: viewer.pat, 'content-type': 'application/json' },
        },
        (response) => {
          let length = 0;
          response.on('data', (chunk: Buffer) => (length += chunk.length));
          response.on('end', () => resolve({ status: response.statusCode!, length }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    answered = true;
    const elapsed = performance.now() - started;
    await watching;
    expect(status).toBe(200);
    expect(length).toBeGreaterThan(10_000_000);
    // Made in one piece, the answer held the loop for nearly all of its time (510 ms of ~600); with
    // the evaluations in slices but the answer one string, flattened and encoded when sent, a turn
    // took 400 ms of 750–950. Put together as bytes a feature at a time, the longest turn is about
    // 100 ms of 750–1,050 on a 2-core machine running other tests.
    expect(longest).toBeLessThan(elapsed / 3);
  });
});
