import { InMemStorageProvider, Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolloutBuckets } from '../src/client/evaluation/murmur3.js';
import { flags } from './flags.js';
import { stopSdk } from './official-sdk.js';
import { startTestServer, type TestServer } from './server.js';

// The official Node SDK against a real Flagpole on a real port: what the admin API sets up is what
// the SDK evaluates, and what the SDK reports shows up in the admin API.
const clientToken = `default:development.${'5'.repeat(56)}`;
let server: TestServer;
let sdk: Unleash;

async function until(condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: clientToken });
  const f = flags(server);
  await f.create('sdk-on');
  await f.enable('sdk-on', 'development');
  await f.create('sdk-off');
  await f.create('sdk-constrained');
  await f.addStrategy('sdk-constrained', 'development', {
    name: 'default',
    constraints: [
      { contextName: 'userId', operator: 'IN', values: ['alice'] },
      { contextName: 'version', operator: 'SEMVER_GTE', value: '2.0.0' },
    ],
  });
  await f.enable('sdk-constrained', 'development');
  const segment = await f.createSegment({
    name: 'eu',
    constraints: [{ contextName: 'region', operator: 'STR_STARTS_WITH', values: ['eu-'] }],
  });
  await f.create('sdk-segment');
  await f.addStrategy('sdk-segment', 'development', { name: 'default', segments: [segment.id] });
  await f.enable('sdk-segment', 'development');
  await f.create('sdk-rollout');
  await f.addStrategy('sdk-rollout', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '30', stickiness: 'userId', groupId: 'rollout-group' },
  });
  await f.enable('sdk-rollout', 'development');
  await f.create('sdk-variants');
  await f.setVariants('sdk-variants', 'development', [
    {
      name: 'a',
      weight: 500,
      weightType: 'variable',
      stickiness: 'default',
      payload: { type: 'string', value: 'A' },
    },
    {
      name: 'b',
      weight: 500,
      weightType: 'variable',
      stickiness: 'default',
      payload: { type: 'number', value: '2' },
    },
  ]);
  await f.enable('sdk-variants', 'development');
  await f.create('sdk-strategy-variants');
  await f.addStrategy('sdk-strategy-variants', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '100' },
    variants: [
      {
        name: 'only',
        weight: 1000,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'json', value: '{"k":true}' },
      },
    ],
  });
  await f.enable('sdk-strategy-variants', 'development');
  // A child that needs its parent on: the parent starts off.
  await f.create('sdk-parent');
  await f.create('sdk-child');
  await f.enable('sdk-child', 'development');
  await f.addDependency('sdk-child', { feature: 'sdk-parent' });

  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  sdk = new Unleash({
    url: `${address}/api/`,
    appName: 'sdk-e2e',
    instanceId: 'e2e-1',
    customHeaders: { Authorization: clientToken },
    refreshInterval: 200,
    metricsInterval: 500,
    metricsJitter: 0,
    storageProvider: new InMemStorageProvider(),
  });
  sdk.on('error', () => {});
  sdk.on('warn', () => {});
  await new Promise((resolve) => sdk.once('synchronized', resolve));
}, 60_000);

afterAll(async () => {
  stopSdk(sdk);
  await server?.close();
});

describe('the Unleash Node SDK against Flagpole', () => {
  it('evaluates enabled and disabled flags', () => {
    expect(sdk.isEnabled('sdk-on')).toBe(true);
    expect(sdk.isEnabled('sdk-off')).toBe(false);
    expect(sdk.isEnabled('no-such-flag')).toBe(false);
  });

  it('evaluates constraints and segments', () => {
    expect(sdk.isEnabled('sdk-constrained', { userId: 'alice', properties: { version: '2.1.0' } })).toBe(
      true,
    );
    expect(sdk.isEnabled('sdk-constrained', { userId: 'alice', properties: { version: '1.9.0' } })).toBe(
      false,
    );
    expect(sdk.isEnabled('sdk-constrained', { userId: 'bob', properties: { version: '2.1.0' } })).toBe(false);
    expect(sdk.isEnabled('sdk-segment', { properties: { region: 'eu-west' } })).toBe(true);
    expect(sdk.isEnabled('sdk-segment', { properties: { region: 'us-east' } })).toBe(false);
  });

  it('rolls out to the same users as Flagpole’s own evaluation, about 30 %', () => {
    let on = 0;
    for (let i = 0; i < 2000; i++) {
      const userId = `user-${i}`;
      const enabled = sdk.isEnabled('sdk-rollout', { userId });
      expect(enabled).toBe(rolloutBuckets('rollout-group')(userId) <= 30);
      if (enabled) on++;
    }
    expect(on / 2000).toBeGreaterThan(0.26);
    expect(on / 2000).toBeLessThan(0.34);
  });

  it('gives variants with payloads, the same one for the same user', () => {
    const v = sdk.getVariant('sdk-variants', { userId: 'u1' });
    expect(['a', 'b']).toContain(v.name);
    expect(v.enabled).toBe(true);
    expect(v.payload).toEqual(
      v.name === 'a' ? { type: 'string', value: 'A' } : { type: 'number', value: '2' },
    );
    for (let i = 0; i < 5; i++) expect(sdk.getVariant('sdk-variants', { userId: 'u1' }).name).toBe(v.name);
    const names = new Set(
      Array.from({ length: 200 }, (_, i) => sdk.getVariant('sdk-variants', { userId: `x${i}` }).name),
    );
    expect([...names].sort()).toEqual(['a', 'b']);
    expect(sdk.getVariant('sdk-strategy-variants', { userId: 'u1' })).toMatchObject({
      name: 'only',
      payload: { type: 'json', value: '{"k":true}' },
    });
  });

  it('evaluates a child off while its parent is off, and on once the parent is', async () => {
    expect(sdk.isEnabled('sdk-parent')).toBe(false);
    expect(sdk.isEnabled('sdk-child')).toBe(false);
    await flags(server).enable('sdk-parent', 'development');
    await until(() => sdk.isEnabled('sdk-parent'));
    expect(sdk.isEnabled('sdk-child')).toBe(true);
  });

  it('sees a change made through the admin API within a couple of polls', async () => {
    await flags(server).disable('sdk-on', 'development');
    await until(() => !sdk.isEnabled('sdk-on'), 5000);
    await flags(server).enable('sdk-on', 'development');
    await until(() => sdk.isEnabled('sdk-on'), 5000);
  });

  it('shows up as an application with its instance and SDK version (E13 reads)', async () => {
    let app: any;
    await until(async () => {
      app = await server.request('GET', '/api/admin/metrics/applications/sdk-e2e', {
        token: server.adminToken,
      });
      return app.status === 200 && app.body.instances.length > 0;
    });
    expect(app.body.instances[0]).toMatchObject({ instanceId: 'e2e-1', environment: 'development' });
    expect(app.body.instances[0].sdkVersion).toMatch(/^unleash-node-sdk:\d+\.\d+\.\d+/);
    expect(app.body.strategies).toEqual(expect.arrayContaining(['default', 'flexibleRollout']));
  });

  it('reports its metrics, which E20 shows within seconds', async () => {
    for (let i = 0; i < 5; i++) sdk.isEnabled('sdk-off');
    for (let i = 0; i < 3; i++) sdk.getVariant('sdk-variants', { userId: 'u1' });
    const expectedVariant = sdk.getVariant('sdk-variants', { userId: 'u1' }).name;
    let row: any;
    await until(async () => {
      const res = await server.request('GET', '/api/admin/client-metrics/features/sdk-off/raw?hoursBack=1', {
        token: server.adminToken,
      });
      row = res.body.data.find((d: any) => d.appName === 'sdk-e2e');
      return row !== undefined && row.no >= 5;
    }, 12_000);
    expect(row).toMatchObject({ environment: 'development', yes: 0 });
    let variants: any;
    await until(async () => {
      const res = await server.request(
        'GET',
        '/api/admin/client-metrics/features/sdk-variants/raw?hoursBack=1',
        {
          token: server.adminToken,
        },
      );
      variants = res.body.data.find((d: any) => d.appName === 'sdk-e2e');
      return (variants?.variants?.[expectedVariant] ?? 0) >= 4;
    }, 12_000);
    expect(variants.yes).toBeGreaterThanOrEqual(4);
  });
});
