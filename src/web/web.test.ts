import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/server.js';
import { isUiBuilt, UI_DIR } from './assets.js';

// The UI is built by `npm install` (npm run build); these read what a browser would get.
let server: TestServer;
let script: string;
beforeAll(async () => {
  if (!isUiBuilt()) throw new Error('The web UI is not built in dist/ui: run `npm run build` first.');
  script = readdirSync(path.join(UI_DIR, 'assets')).find((f) => f.endsWith('.js'))!;
  server = await startTestServer();
});
afterAll(() => server?.close());

const get = (url: string, headers: Record<string, string> = {}) => server.request('GET', url, { headers });

describe('the web UI at /', () => {
  it('answers its page at / with no-cache and a content security policy', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).toContain('<div id="app"></div>');
  });

  it('answers the same page for the paths of its screens, so deep links and reloads work', async () => {
    const page = (await get('/')).text;
    for (const url of [
      '/projects/default',
      '/projects/default/features/x/usage',
      '/new-user?invite=abc',
      '/reset-password?token=t',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.text, url).toBe(page);
    }
  });

  it('serves hashed assets as immutable for a year, compressed when the browser accepts it', async () => {
    const plain = await get(`/assets/${script}`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/javascript/);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const brotli = await server.app.inject({
      url: `/assets/${script}`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toContain('accept-encoding');
    expect(brotli.rawPayload.length).toBeLessThan(plain.text.length);
    const gzip = await server.app.inject({
      url: `/assets/${script}`,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });

  it('keeps the JSON answers of the server’s own paths', async () => {
    for (const url of ['/api/admin/no-such-thing', '/api/client/nope']) {
      const res = await get(url);
      expect(res.status, url).toBe(401);
      expect(res.body.name).toBe('AuthenticationRequired');
    }
    for (const url of [
      '/auth/nope',
      '/docs-nope',
      '/health/deep',
      '/ready/x',
      '/internal-backstage/nope',
      '/edge/nope',
      '/invite/nope',
      '/assets/gone-1234.js',
      '/logout',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.body.name, url).toBe('NotFoundError');
    }
    expect((await get('/health')).body).toEqual({ health: 'GOOD' });
  });

  it('answers only reads with the page: other methods on unknown paths are 404', async () => {
    const res = await server.request('POST', '/projects/default', { body: {} });
    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    const head = await server.app.inject({ method: 'HEAD', url: '/projects' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
  });

  it('leaves the static files out of the API reference', async () => {
    const doc = (await get('/docs/json')).body;
    expect(
      Object.keys(doc.paths).filter((p) => p.startsWith('/assets') || p === '/' || p.endsWith('.html')),
    ).toEqual([]);
  });
});
