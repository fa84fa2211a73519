import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isPostgres,
  type Replica,
  type Reply,
  startReplica,
  startTestServer,
  type TestServer,
} from '../../test/server.js';

const frontendToken = `default:development.${'f'.repeat(56)}`;
const clientToken = `default:development.${'c'.repeat(56)}`;
const APP = 'https://app.example.com';
const LOCAL = 'http://localhost:3000';
const OTHER = 'https://other.example.com';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    INIT_FRONTEND_API_TOKENS: frontendToken,
    INIT_CLIENT_API_TOKENS: clientToken,
    UNLEASH_FRONTEND_API_ORIGINS: `${APP}, ${LOCAL}`,
  });
});
afterAll(() => server.close());

type Target = Pick<TestServer, 'request'>;

function preflight(target: Target, path: string, origin: string, method = 'GET'): Promise<Reply> {
  return target.request('OPTIONS', path, {
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers':
        'authorization,content-type,if-none-match,unleash-sdk,unleash-appname',
    },
  });
}

const allowHeaders = (res: Reply) =>
  String(res.headers['access-control-allow-headers'])
    .split(',')
    .map((h) => h.trim().toLowerCase());

async function setOrigins(frontendApiOrigins: string[]) {
  const res = await server.request('POST', '/api/admin/ui-config/cors', {
    token: server.adminToken,
    body: { frontendApiOrigins },
  });
  expect(res.status).toBe(204);
}

describe('CORS on the SDK paths', () => {
  it('starts with UNLEASH_FRONTEND_API_ORIGINS', async () => {
    const res = await server.request('GET', '/api/admin/ui-config', { token: server.adminToken });
    expect(res.body.frontendApiOrigins).toEqual([APP, LOCAL]);
  });

  it('answers preflights without credentials: the SDK headers allowed, ETag exposed', async () => {
    for (const [path, method] of [
      ['/api/frontend', 'GET'],
      ['/api/frontend', 'POST'],
      ['/api/frontend/features/x', 'GET'],
      ['/api/frontend/client/metrics', 'POST'],
      ['/api/frontend/client/register', 'POST'],
      ['/api/client/features', 'GET'],
      ['/api/client/metrics/bulk', 'POST'],
      ['/edge/validate', 'POST'],
    ] as const) {
      const res = await preflight(server, path, APP, method);
      expect(res.status, path).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers['access-control-allow-origin'], path).toBe(APP);
      expect(String(res.headers['access-control-allow-methods'])).toContain(method);
      expect(allowHeaders(res)).toEqual(
        expect.arrayContaining([
          'authorization',
          'content-type',
          'if-none-match',
          'unleash-appname',
          'unleash-sdk',
          'unleash-connection-id',
          'unleash-client-spec',
          'unleash-instanceid',
        ]),
      );
      expect(res.headers['access-control-expose-headers']).toBe('ETag');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(res.headers.vary)).toContain('Origin');
    }
  });

  it('puts the allowed origin on answers, errors included; other origins get none', async () => {
    const ok = await server.request('GET', '/api/frontend', {
      token: frontendToken,
      headers: { origin: LOCAL },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(LOCAL);
    expect(ok.headers['access-control-expose-headers']).toBe('ETag');
    expect(ok.headers.etag).toBeDefined();
    const refused = await server.request('GET', '/api/frontend', { headers: { origin: APP } });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(APP);
    const client = await server.request('GET', '/api/client/features', {
      token: clientToken,
      headers: { origin: APP },
    });
    expect(client.headers['access-control-allow-origin']).toBe(APP);
    const serverSide = await server.request('GET', '/api/client/features', { token: clientToken });
    expect(serverSide.status).toBe(200);
    expect(serverSide.headers['access-control-allow-origin']).toBeUndefined();
    expect(serverSide.headers.vary).toBe('Origin');

    const stranger = await preflight(server, '/api/frontend', OTHER);
    expect(stranger.status).toBe(204);
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    const read = await server.request('GET', '/api/frontend', {
      token: frontendToken,
      headers: { origin: OTHER },
    });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('leaves the admin API, sign-in and the rest without CORS', async () => {
    const options = await preflight(server, '/api/admin/projects', APP);
    expect(options.status).toBe(401);
    expect(options.headers['access-control-allow-origin']).toBeUndefined();
    const read = await server.request('GET', '/api/admin/projects', {
      token: server.adminToken,
      headers: { origin: APP },
    });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(read.headers.vary ?? '').not.toMatch(/origin/i);
    for (const path of ['/auth/simple/login', '/health', '/api/clientele']) {
      const res = await preflight(server, path, APP, 'POST');
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
    }
  });

  it('applies a change of the origins to the very next request', async () => {
    await setOrigins([OTHER]);
    expect((await preflight(server, '/api/frontend', OTHER)).headers['access-control-allow-origin']).toBe(
      OTHER,
    );
    const removed = await server.request('GET', '/api/frontend', {
      token: frontendToken,
      headers: { origin: APP },
    });
    expect(removed.headers['access-control-allow-origin']).toBeUndefined();

    await setOrigins([]);
    expect(
      (await preflight(server, '/api/frontend', OTHER)).headers['access-control-allow-origin'],
    ).toBeUndefined();

    await setOrigins(['*']);
    const any = await server.request('GET', '/api/frontend', {
      token: frontendToken,
      headers: { origin: 'https://anyone.example' },
    });
    expect(any.headers['access-control-allow-origin']).toBe('*');
    await setOrigins([APP, LOCAL]);
  });
});

describe.runIf(isPostgres())('CORS on several replicas', () => {
  let replica: Replica;
  beforeAll(async () => {
    replica = await startReplica(server);
  });
  afterAll(() => replica?.close());

  it('a change made through one process applies on another within a second', async () => {
    const allowed = async (origin: string) =>
      (await preflight(replica, '/api/frontend', origin)).headers['access-control-allow-origin'] === origin;
    expect(await allowed(APP)).toBe(true);
    expect(await allowed(OTHER)).toBe(false);
    await setOrigins([OTHER]);
    const started = Date.now();
    while (!(await allowed(OTHER))) {
      expect(Date.now() - started).toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await allowed(APP)).toBe(false);
    const config = await replica.request('GET', '/api/admin/ui-config', { token: server.adminToken });
    expect(config.body.frontendApiOrigins).toEqual([OTHER]);
    await setOrigins([APP, LOCAL]);
  });
});
