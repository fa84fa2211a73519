import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TOKEN } from '../../test/features.js';
import { countEvents, startTestServer, type TestServer } from '../../test/server.js';
import { stateDocument } from '../../test/state-document.js';

let source: TestServer;
let copy: TestServer;

beforeAll(async () => {
  source = await startTestServer({ INIT_CLIENT_API_TOKENS: CLIENT_TOKEN });
  copy = await startTestServer({ INIT_CLIENT_API_TOKENS: CLIENT_TOKEN });
});
afterAll(async () => {
  await source.close();
  await copy.close();
});

const COUNT = 1000;

async function exportOf(server: TestServer) {
  const res = await server.request('GET', '/api/admin/state/export', { token: server.adminToken });
  expect(res.status).toBe(200);
  return res.body;
}

async function timedImport(server: TestServer, body: unknown, query = '') {
  const started = performance.now();
  const res = await server.request('POST', `/api/admin/state/import${query}`, {
    token: server.adminToken,
    body,
  });
  const seconds = (performance.now() - started) / 1000;
  expect(res.status, res.text).toBe(202);
  return seconds;
}

describe(`E5 a state of ${COUNT} features with strategies, segments and tags`, () => {
  it('imports in seconds, and the SDKs are served the flags at once', async () => {
    const seconds = await timedImport(source, stateDocument(COUNT));
    console.log(`import of ${COUNT} features: ${seconds.toFixed(2)} s`);
    expect(seconds).toBeLessThan(60);
    const sdk = await source.request('GET', '/api/client/features', {
      token: CLIENT_TOKEN,
      headers: { 'unleash-client-spec': '5.2.0' },
    });
    const live = stateDocument(COUNT).features.filter((f) => !f.archived);
    expect(sdk.body.segments.map((s: { id: number }) => s.id)).toEqual([1, 2]);
    expect(sdk.body.features).toHaveLength(live.length);
    const first = sdk.body.features.find((f: { name: string }) => f.name === 'flag-0001');
    expect(first).toMatchObject({
      project: 'alpha',
      enabled: true,
      strategies: [
        {
          name: 'flexibleRollout',
          parameters: { rollout: '1', stickiness: 'default', groupId: 'flag-0001' },
          segments: [1, 2],
        },
      ],
    });
    const list = await source.request('GET', '/api/admin/projects/beta/features', {
      token: source.adminToken,
    });
    expect(list.body.features).toHaveLength(live.filter((f) => f.project === 'beta').length);
  });

  it('export → import into an empty Flagpole → export gives the same state', async () => {
    const exported = await exportOf(source);
    expect(exported.features).toHaveLength(COUNT);
    expect(exported.featureStrategies.length).toBeGreaterThan(COUNT);
    expect(exported.featureTags.length).toBeGreaterThan(COUNT);
    expect(exported.segments).toHaveLength(2);
    // Larger than the body limit of other routes: imports have one of their own.
    expect(JSON.stringify(exported).length).toBeGreaterThan(1024 * 1024);
    const seconds = await timedImport(copy, exported);
    console.log(`import of the export into an empty Flagpole: ${seconds.toFixed(2)} s`);
    expect(await exportOf(copy)).toEqual(exported);
    const sdk = await copy.request('GET', '/api/client/features', { token: CLIENT_TOKEN });
    const original = await source.request('GET', '/api/client/features', { token: CLIENT_TOKEN });
    expect(sdk.body.features).toEqual(original.body.features);
  });

  it('importing the export again changes nothing, with keep or without', async () => {
    const exported = await exportOf(copy);
    const events = await countEvents(copy);
    await timedImport(copy, exported);
    await timedImport(copy, exported, '?keep=false');
    expect(await countEvents(copy)).toBe(events);
    expect(await exportOf(copy)).toEqual(exported);
  });

  it('drop=true replaces the whole state in seconds', async () => {
    const smaller = stateDocument(COUNT / 2);
    const seconds = await timedImport(copy, smaller, '?drop=true');
    console.log(`drop and import of ${COUNT / 2} features over ${COUNT}: ${seconds.toFixed(2)} s`);
    const state = await exportOf(copy);
    expect(state.features).toHaveLength(COUNT / 2);
    const sdk = await copy.request('GET', '/api/client/features', { token: CLIENT_TOKEN });
    expect(sdk.body.features).toHaveLength(smaller.features.filter((f) => !f.archived).length);
  });
});
