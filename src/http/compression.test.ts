import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeature, startTestServer, type TestServer } from '../../test/server.js';
import { chooseEncoding } from './compression.js';

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, and takes q=0 as a refusal', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('BR')).toBe('br');
    expect(chooseEncoding('*')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('gzip;q=0, br;q=0')).toBeUndefined();
    expect(chooseEncoding('')).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
  });
});

// A browser's list of a project's flags came as it was: 2.5 MB of JSON for 3,000 flags.
describe('answers of the admin API', () => {
  let server: TestServer;
  let sdkToken: string;
  const list = '/api/admin/projects/default/features';
  const get = (url: string, headers: Record<string, string>, token = server.adminToken) =>
    server.app.inject({ method: 'GET', url, headers: { authorization: token, ...headers } });

  beforeAll(async () => {
    server = await startTestServer();
    for (let i = 0; i < 30; i++) await createFeature(server, `packed-${i}`);
    const made = await server.request('POST', '/api/admin/api-tokens', {
      token: server.adminToken,
      body: { tokenName: 'sdk', type: 'client', environment: 'development' },
    });
    sdkToken = made.body.secret;
  });
  afterAll(() => server?.close());

  it('come compressed in the encoding the client prefers, and read back the same', async () => {
    const plain = await get(list, {});
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    expect(plain.json().features).toHaveLength(30);

    const br = await get(list, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.payload);

    const gz = await get(list, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.payload);
    if (gz.headers['content-length'] !== undefined) {
      expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    }
  });

  it('are left as they are when small (an error, here)', async () => {
    const missing = await get('/api/admin/projects/nowhere/features', { 'accept-encoding': 'gzip' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(missing.json().name).toBe('NotFoundError');
  });

  it('leave the SDK paths as they are', async () => {
    const res = await get('/api/client/features', { 'accept-encoding': 'gzip, br' }, sdkToken);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().features.length).toBeGreaterThanOrEqual(30);
  });
});
