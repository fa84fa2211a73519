import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /health', () => {
  it('answers GOOD without credentials', async () => {
    const res = await server.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ health: 'GOOD' });
  });

  it('ignores a garbage Authorization header', async () => {
    const res = await server.request('GET', '/health', { token: 'garbage' });
    expect(res.status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3 document with the security schemes and the routes', async () => {
    const res = await server.request('GET', '/docs/json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.components.securitySchemes)).toEqual(['apiToken', 'session']);
    expect(res.body.paths['/api/admin/user-admin']).toBeDefined();
    expect(res.body.paths['/auth/reset/password'].post.requestBody).toBeDefined();
  });

  it("names no endpoint by the specification's internal codes (E1–E20) in its summaries or descriptions", async () => {
    const res = await server.request('GET', '/docs/json');
    const coded: string[] = [];
    const walk = (value: unknown, path: string): void => {
      if (typeof value === 'string') {
        if (/(summary|description)$/.test(path) && /\bE(?:[1-9]|1\d|20)\b/.test(value))
          coded.push(`${path}: ${value}`);
      } else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) walk(inner, `${path}.${key}`);
      }
    };
    walk(res.body, '');
    expect(coded).toEqual([]);
  });

  it('serves a browsable page at /docs', async () => {
    const res = await server.request('GET', '/docs/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html');
  });
});
