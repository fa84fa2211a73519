import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { stopSdk, synchronizedSdk } from '../../test/official-sdk.js';
import { startTestServer, type TestServer } from '../../test/server.js';

const devToken = `default:development.${'1'.repeat(56)}`;
const allProjectsToken = `*:development.${'3'.repeat(56)}`;
let server: TestServer;
let f: ReturnType<typeof flags>;

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: `${devToken},${allProjectsToken}` });
  f = flags(server);
  await f.create('beta', { description: 'b' });
  await f.enable('beta', 'development');
  await f.create('alpha');
  const segment = await f.createSegment({
    name: 'eu',
    constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
  });
  await f.addStrategy('alpha', 'development', { name: 'default', segments: [segment.id] });
  await server.request('POST', '/api/admin/projects', {
    token: server.adminToken,
    body: { id: 'other', name: 'Other' },
  });
  await flags(server, 'other').create('elsewhere');
});
afterAll(() => server.close());

interface DeltaEvent {
  type: string;
  segment?: { id: number; name: string };
  segmentId?: number;
  eventId: number;
  features?: { name: string; project: string }[];
  segments?: { id: number; name: string }[];
  feature?: { name: string; project: string; enabled: boolean };
  featureName?: string;
  project?: string;
}

const delta = (token: string, etag?: string, query = '') =>
  server.request<{ events: DeltaEvent[] }>('GET', `/api/client/delta${query}`, {
    token,
    headers: etag === undefined ? {} : { 'if-none-match': etag },
  });

/** The client's revision after its first call: the ETag of a hydration. */
async function hydrated(token: string, query = ''): Promise<string> {
  const res = await delta(token, undefined, query);
  expect(res.status).toBe(200);
  return res.headers.etag as string;
}

describe('GET /api/client/delta', () => {
  it('answers a first call with a hydration of the token’s flags and every segment, its ETag the event id', async () => {
    const res = await delta(devToken);
    expect(res.status).toBe(200);
    const [event, ...rest] = res.body.events;
    expect(rest).toEqual([]);
    expect(event!.type).toBe('hydration');
    expect(Number.isInteger(event!.eventId)).toBe(true);
    expect(event!.eventId).toBeLessThan(2 ** 31);
    expect(res.headers.etag).toBe(`"${event!.eventId}"`);
    expect(event!.features!.map((x) => [x.name, x.project])).toEqual([
      ['alpha', 'default'],
      ['beta', 'default'],
    ]);
    expect(event!.segments!.map((s) => s.name)).toEqual(['eu']);
    const all = await delta(allProjectsToken);
    expect(all.body.events[0]!.features!.map((x) => x.name)).toEqual(['alpha', 'beta', 'elsewhere']);
  });

  it('answers 304 with no body and no ETag while nothing has changed, quoted or not', async () => {
    const etag = await hydrated(devToken);
    for (const sent of [etag, etag.replaceAll('"', ''), `W/${etag}`]) {
      const res = await delta(devToken, sent);
      expect(res.status).toBe(304);
      expect(res.text).toBe('');
      expect(res.headers.etag).toBeUndefined();
    }
  });

  it('sends only what changed since the client’s revision, as feature-updated and feature-removed', async () => {
    const etag = await hydrated(devToken);
    await f.enable('alpha', 'development');
    const updated = await delta(devToken, etag);
    expect(updated.status).toBe(200);
    // The segment alpha uses comes first: a client sent only deltas may never have had it.
    expect(
      updated.body.events.map((e) => [e.type, e.feature?.name ?? e.segment?.name, e.feature?.enabled]),
    ).toEqual([
      ['segment-updated', 'eu', undefined],
      ['feature-updated', 'alpha', true],
    ]);
    const after = updated.headers.etag as string;
    expect(Number(after.replaceAll('"', ''))).toBeGreaterThan(Number(etag.replaceAll('"', '')));
    expect(after).toBe(`"${updated.body.events[1]!.eventId}"`);
    expect((await delta(devToken, after)).status).toBe(304);

    await f.create('gamma');
    await f.archive(['beta']);
    const next = await delta(devToken, after);
    expect(next.body.events.map((e) => [e.type, e.feature?.name ?? e.featureName, e.project])).toEqual([
      ['feature-updated', 'gamma', undefined],
      ['feature-removed', 'beta', 'default'],
    ]);
    const ids = next.body.events.map((e) => e.eventId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    await f.revive(['beta']);
  });

  it('leaves out the changes of projects the token does not see, and follows a project and a name prefix', async () => {
    const etag = await hydrated(devToken);
    await flags(server, 'other').enable('elsewhere', 'development');
    expect((await delta(devToken, etag)).status).toBe(304);
    const all = await delta(allProjectsToken, etag);
    expect(all.body.events.map((e) => e.feature?.name)).toEqual(['elsewhere']);

    const prefixed = await hydrated(allProjectsToken, '?namePrefix=el');
    await flags(server, 'other').disable('elsewhere', 'development');
    await f.disable('alpha', 'development');
    const res = await delta(allProjectsToken, prefixed, '?namePrefix=el');
    expect(res.body.events.map((e) => e.feature?.name)).toEqual(['elsewhere']);
    const scoped = await delta(allProjectsToken, undefined, '?project=other');
    expect(scoped.body.events[0]!.features!.map((x) => x.name)).toEqual(['elsewhere']);
  });

  it('hydrates again a client whose revision it cannot follow', async () => {
    for (const sent of ['"not-a-number"', '"-1"', '""']) {
      const res = await delta(devToken, sent);
      expect(res.body.events.map((e) => e.type)).toEqual(['hydration']);
    }
  });

  it('sends a segment before the features that start using it, its changes to those who use it, its removal to all', async () => {
    const etag = await hydrated(devToken);
    const us = await f.createSegment({ name: 'us', constraints: [] });
    const gone = await f.createSegment({ name: 'gone', constraints: [] });
    // Used by no flag the token sees: nothing to send yet.
    expect((await delta(devToken, etag)).status).toBe(304);
    await f.addStrategy('beta', 'development', { name: 'default', segments: [us.id] });
    const used = await delta(devToken, etag);
    expect(used.body.events.map((e) => [e.type, e.segment?.name ?? e.feature?.name])).toEqual([
      ['segment-updated', 'us'],
      ['feature-updated', 'beta'],
    ]);
    const after = used.headers.etag as string;
    const changed = await server.request('PUT', `/api/admin/segments/${us.id}`, {
      token: server.adminToken,
      body: { name: 'us', constraints: [{ contextName: 'region', operator: 'IN', values: ['us'] }] },
    });
    expect(changed.status).toBe(204);
    const removed = await server.request('DELETE', `/api/admin/segments/${gone.id}`, {
      token: server.adminToken,
    });
    expect(removed.status).toBe(204);
    const next = await delta(devToken, after);
    expect(next.body.events.map((e) => [e.type, e.segment?.name ?? e.segmentId])).toEqual([
      ['segment-updated', 'us'],
      ['segment-removed', gone.id],
    ]);
  });

  it('moves a feature between projects as removed from one and updated in the other', async () => {
    await f.create('mover');
    const etag = await hydrated(allProjectsToken);
    const moved = await server.request('POST', '/api/admin/projects/default/features/mover/changeProject', {
      token: server.adminToken,
      body: { newProjectId: 'other' },
    });
    expect(moved.status).toBe(200);
    const res = await delta(allProjectsToken, etag);
    expect(res.body.events.map((e) => [e.type, e.feature?.project ?? e.project])).toEqual([
      ['feature-removed', 'default'],
      ['feature-updated', 'other'],
    ]);
    const scoped = await hydrated(devToken);
    expect((await delta(devToken, scoped)).status).toBe(304);
  });

  it('asks for a client token', async () => {
    expect((await server.request('GET', '/api/client/delta')).status).toBe(401);
  });
});

describe('the official Node SDK in delta mode', () => {
  it('gets the flags, then a change within a refresh', async () => {
    await f.create('sdk-delta');
    await f.enable('sdk-delta', 'development');
    await f.disable('alpha', 'development');
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const sdk = await synchronizedSdk(address, devToken, {
      appName: 'delta-test',
      refreshInterval: 200,
      experimentalMode: { type: 'polling', format: 'delta' },
    });
    try {
      expect(sdk.isEnabled('sdk-delta')).toBe(true);
      expect(sdk.isEnabled('elsewhere')).toBe(false);
      expect(sdk.isEnabled('alpha', { properties: { region: 'eu' } })).toBe(false);
      await f.enable('alpha', 'development');
      const deadline = Date.now() + 5_000;
      while (!sdk.isEnabled('alpha', { properties: { region: 'eu' } }) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(sdk.isEnabled('alpha', { properties: { region: 'eu' } })).toBe(true);
      expect(sdk.isEnabled('alpha', { properties: { region: 'us' } })).toBe(false);
    } finally {
      stopSdk(sdk);
    }
  });
});
