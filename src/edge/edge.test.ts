import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucket, currentHour, eventually, postMetrics, rawMetrics } from '../../test/metrics.js';
import {
  countEvents,
  createFeature,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/server.js';

const clientToken = `default:development.${'c'.repeat(56)}`;
const prodToken = `default:production.${'d'.repeat(56)}`;
const allProjectsToken = `*:development.${'a'.repeat(56)}`;
const frontendToken = `default:development.${'f'.repeat(56)}`;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    INIT_CLIENT_API_TOKENS: `${clientToken},${prodToken},${allProjectsToken}`,
    INIT_FRONTEND_API_TOKENS: frontendToken,
  });
  for (const name of ['edge-counted', 'direct-counted']) await createFeature(server, name);
});
afterAll(() => server.close());

const validate = (body: unknown, headers: Record<string, string> = {}) =>
  server.request('POST', '/edge/validate', { body, headers });
const bulk = (body: unknown, token = clientToken) =>
  server.request('POST', '/api/client/metrics/bulk', { token, body });

describe('POST /edge/validate', () => {
  it('answers the valid client and frontend tokens with their type, projects and environment', async () => {
    const unknown = `default:development.${'9'.repeat(56)}`;
    const res = await validate({
      tokens: [clientToken, frontendToken, allProjectsToken, unknown, 'garbage', '', clientToken],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tokens: [
        { token: clientToken, type: 'client', projects: ['default'], environment: 'development' },
        { token: frontendToken, type: 'frontend', projects: ['default'], environment: 'development' },
        { token: allProjectsToken, type: 'client', projects: ['*'], environment: 'development' },
      ],
    });
    expect((await validate({ tokens: [] })).body).toEqual({ tokens: [] });
  });

  it('never confirms an admin token or a personal access token', async () => {
    const user = await createUser(server, 1);
    const res = await validate({ tokens: [server.adminToken, user.pat, prodToken] });
    expect(res.body.tokens.map((t: { token: string }) => t.token)).toEqual([prodToken]);
  });

  it('follows the tokens: one deleted or made later is answered as it is now', async () => {
    const made = await server.request('POST', '/api/admin/api-tokens', {
      token: server.adminToken,
      body: { tokenName: 'edge', type: 'client', environment: 'production', projects: ['default'] },
    });
    expect(made.status).toBe(201);
    const secret = made.body.secret as string;
    expect((await validate({ tokens: [secret] })).body.tokens).toEqual([
      { token: secret, type: 'client', projects: ['default'], environment: 'production' },
    ]);
    const list = await server.request('GET', '/api/admin/api-tokens', { token: server.adminToken });
    const id = list.body.tokens.find((t: { tokenName: string }) => t.tokenName === 'edge')?.id;
    const removed = await server.request('DELETE', `/api/admin/api-tokens/${id}`, {
      token: server.adminToken,
    });
    expect(removed.status).toBe(200);
    expect((await validate({ tokens: [secret] })).body.tokens).toEqual([]);
  });

  it('needs no credentials, as an Edge sends none, and ignores any sent', async () => {
    for (const authorization of [clientToken, frontendToken, server.adminToken, 'nonsense']) {
      const res = await validate({ tokens: [clientToken] }, { authorization });
      expect(res.status).toBe(200);
      expect(res.body.tokens).toHaveLength(1);
    }
  });

  it('refuses other bodies with 400 and other content types with 415', async () => {
    for (const body of [
      {},
      { tokens: 'x' },
      { tokens: [1] },
      { tokens: Array.from({ length: 1001 }, () => 'x') },
      '[]',
    ]) {
      const res = await validate(body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    const text = await server.request('POST', '/edge/validate', {
      body: JSON.stringify({ tokens: [] }),
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
  });
});

describe('POST /api/client/metrics/bulk', () => {
  it('counts as /api/client/metrics counts and registers the applications: 202', async () => {
    const events = await countEvents(server, 'application-created');
    const started = new Date(Date.now() - 60_000).toISOString();
    const res = await bulk({
      applications: [
        {
          appName: 'checkout',
          instanceId: 'pod-1',
          environment: 'development',
          sdkVersion: 'unleash-client-node:6.1.0',
          strategies: ['default', 'flexibleRollout'],
          started,
          interval: 15_000,
          connectVia: [{ appName: 'unleash-edge', instanceId: 'edge-1' }],
          sdkType: 'backend',
        },
      ],
      metrics: [
        {
          featureName: 'edge-counted',
          appName: 'checkout',
          environment: 'development',
          timestamp: new Date().toISOString(),
          yes: 5,
          no: 2,
          variants: { blue: 4 },
        },
        {
          featureName: 'edge-counted',
          appName: 'checkout',
          environment: 'development',
          timestamp: Date.now(),
          yes: 1,
          no: 0,
        },
        { featureName: 'edge-counted', appName: 'checkout', environment: 'development' },
        { featureName: 'no-such-feature', appName: 'checkout', environment: 'development', yes: 1 },
      ],
      impactMetrics: [],
      seenTokens: [clientToken],
    });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    // The same counts sent by an SDK itself, for the same kind of feature.
    const direct = await postMetrics(server, clientToken, {
      appName: 'checkout',
      instanceId: 'pod-2',
      bucket: bucket({ 'direct-counted': { yes: 6, no: 2, variants: { blue: 4 } } }),
    });
    expect(direct.status).toBe(202);

    const counted = await eventually(
      () => rawMetrics(server, 'edge-counted'),
      (r) => r.body.data.some((d: { yes: number }) => d.yes === 6),
    );
    const directly = await eventually(
      () => rawMetrics(server, 'direct-counted'),
      (r) => r.body.data.some((d: { yes: number }) => d.yes === 6),
    );
    const last = (r: typeof counted) => {
      const { featureName: _name, ...rest } = r.body.data.at(-1);
      return rest;
    };
    expect(last(counted)).toEqual({
      appName: 'checkout',
      environment: 'development',
      timestamp: currentHour(),
      yes: 6,
      no: 2,
      variants: { blue: 4 },
    });
    expect(last(counted)).toEqual(last(directly));

    const app = await server.request('GET', '/api/admin/metrics/applications/checkout', {
      token: server.adminToken,
    });
    expect(app.status).toBe(200);
    expect(app.body).toMatchObject({
      appName: 'checkout',
      sdkVersion: 'unleash-client-node:6.1.0',
      strategies: ['default', 'flexibleRollout'],
    });
    const pod = app.body.instances.find((i: { instanceId: string }) => i.instanceId === 'pod-1');
    expect(pod).toMatchObject({
      environment: 'development',
      sdkVersion: 'unleash-client-node:6.1.0',
      started,
    });
    expect(app.body.seenToggles).toContain('edge-counted');
    expect(await countEvents(server, 'application-created')).toBe(events + 1);
  });

  it('registers an instance listed twice once, each field from the last entry that had it', async () => {
    const started = new Date(Date.now() - 120_000).toISOString();
    const pod = { appName: 'twice', instanceId: 'pod-1', environment: 'development' };
    const res = await bulk({
      applications: [
        { ...pod, sdkVersion: 'unleash-client-java:9.2.0', started, interval: 10_000 },
        { ...pod, interval: 20_000 },
      ],
      metrics: [],
    });
    expect(res.status).toBe(202);
    const app = await server.request('GET', '/api/admin/metrics/applications/twice', {
      token: server.adminToken,
    });
    expect(app.body.instances).toEqual([
      expect.objectContaining({ instanceId: 'pod-1', sdkVersion: 'unleash-client-java:9.2.0', started }),
    ]);
  });

  it("leaves out what belongs to an environment other than the token's", async () => {
    const res = await bulk(
      {
        applications: [{ appName: 'elsewhere-app', instanceId: 'x', environment: 'production' }],
        metrics: [
          { featureName: 'edge-counted', appName: 'elsewhere-app', environment: 'production', yes: 9 },
        ],
      },
      clientToken,
    );
    expect(res.status).toBe(202);
    const prod = await bulk(
      {
        applications: [],
        metrics: [{ featureName: 'edge-counted', appName: 'prod-app', environment: 'production', yes: 3 }],
      },
      prodToken,
    );
    expect(prod.status).toBe(202);
    const raw = await eventually(
      () => rawMetrics(server, 'edge-counted'),
      (r) => r.body.data.some((d: { appName: string }) => d.appName === 'prod-app'),
    );
    expect(raw.body.data.filter((d: { appName: string }) => d.appName === 'prod-app').at(-1)).toMatchObject({
      environment: 'production',
      yes: 3,
    });
    expect(raw.body.data.some((d: { appName: string }) => d.appName === 'elsewhere-app')).toBe(false);
    const app = await server.request('GET', '/api/admin/metrics/applications/elsewhere-app', {
      token: server.adminToken,
    });
    expect(app.status).toBe(404);
  });

  it('needs a client token: 401 without or with an unknown one, 403 for other kinds', async () => {
    const body = { applications: [], metrics: [] };
    expect((await server.request('POST', '/api/client/metrics/bulk', { body })).status).toBe(401);
    expect((await bulk(body, `default:development.${'9'.repeat(56)}`)).status).toBe(401);
    for (const token of [frontendToken, server.adminToken]) {
      const res = await bulk(body, token);
      expect(res.status).toBe(403);
      expect(res.body.name).toBe('NoAccessError');
    }
    expect((await bulk(body)).status).toBe(202);
  });

  it('refuses malformed batches with 400 and other content types with 415, recording nothing', async () => {
    const events = await countEvents(server);
    const app = { appName: 'bad-app', instanceId: 'i', environment: 'development' };
    const metric = { featureName: 'edge-counted', appName: 'bad-app', environment: 'development', yes: 1 };
    for (const body of [
      {},
      { applications: [] },
      { metrics: [] },
      { applications: [{ ...app, instanceId: undefined }], metrics: [] },
      { applications: [{ ...app, environment: undefined }], metrics: [] },
      { applications: [app], metrics: [{ ...metric, yes: -1 }] },
      { applications: [app], metrics: [{ ...metric, yes: '1' }] },
      { applications: [app], metrics: [{ ...metric, timestamp: 'yesterday' }] },
      { applications: [app], metrics: [{ ...metric, timestamp: 253_402_300_800_000 }] },
      { applications: [{ ...app, started: -1 }], metrics: [] },
      { applications: [app], metrics: [{ ...metric, featureName: '' }] },
      { applications: [app], metrics: [{ ...metric, variants: { blue: 1.5 } }] },
      { applications: [app], metrics: [{ ...metric, appName: 'a\u0000b' }] },
    ]) {
      const res = await bulk(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    const text = await server.request('POST', '/api/client/metrics/bulk', {
      token: clientToken,
      body: JSON.stringify({ applications: [app], metrics: [] }),
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    expect(await countEvents(server)).toBe(events);
    const known = await server.request('GET', '/api/admin/metrics/applications/bad-app', {
      token: server.adminToken,
    });
    expect(known.status).toBe(404);
  });
});
