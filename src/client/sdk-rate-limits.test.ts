import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/server.js';

const clientToken = `default:development.${'a'.repeat(56)}`;
const frontendToken = `default:development.${'b'.repeat(56)}`;
let server: TestServer;

// Small limits, so a test can cross them: 3 a minute per address, 5 per token.
beforeAll(async () => {
  server = await startTestServer({
    INIT_CLIENT_API_TOKENS: clientToken,
    INIT_FRONTEND_API_TOKENS: frontendToken,
    REGISTER_CLIENT_RATE_LIMIT_PER_MINUTE: '3',
    CLIENT_METRICS_RATE_LIMIT_PER_MINUTE: '3',
    REGISTER_FRONTEND_RATE_LIMIT_PER_MINUTE: '3',
    FRONTEND_METRICS_RATE_LIMIT_PER_MINUTE: '3',
    FRONTEND_API_RATE_LIMIT_PER_MINUTE: '3',
    SDK_TOKEN_RATE_LIMIT_PER_MINUTE: '5',
  });
});
afterAll(() => server.close());

const now = new Date().toISOString();
const metrics = { appName: 'app', bucket: { start: now, stop: now, toggles: { f: { yes: 1, no: 0 } } } };

const calls: [string, string, string, unknown, number][] = [
  ['POST', '/api/client/register', clientToken, { appName: 'app', instanceId: 'i' }, 202],
  ['POST', '/api/client/metrics', clientToken, metrics, 202],
  ['POST', '/api/client/metrics/bulk', clientToken, { applications: [], metrics: [] }, 202],
  ['POST', '/api/frontend/client/register', frontendToken, { appName: 'web', instanceId: 'i' }, 200],
  ['POST', '/api/frontend/client/metrics', frontendToken, metrics, 200],
  ['GET', '/api/frontend', frontendToken, undefined, 200],
];

describe('the SDK paths are limited per address and per token', () => {
  let address = 0;
  for (const [method, path, token, body, ok] of calls) {
    it(`${method} ${path}: 429 with Retry-After past the limit of an address, then of the token`, async () => {
      const from = (n: number) => ({ token, body, remoteAddress: `10.21.${address}.${n}` });
      address++;
      for (let i = 0; i < 3; i++) expect((await server.request(method, path, from(1))).status).toBe(ok);
      const refused = await server.request(method, path, from(1));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.body).toMatchObject({
        name: 'RateLimitError',
        message: expect.stringContaining('Too many'),
      });
      expect(typeof refused.body.id).toBe('string');

      // Another address may, until the token has had its 5 of the minute.
      expect((await server.request(method, path, from(2))).status).toBe(ok);
      expect((await server.request(method, path, from(2))).status).toBe(ok);
      expect((await server.request(method, path, from(3))).status).toBe(429);
    });
  }
});
