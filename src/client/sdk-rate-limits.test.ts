import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { startTestServer, type TestServer } from '../../test/server.js';

const clientToken = `default:development.${'a'.repeat(56)}`;
const frontendToken = `default:development.${'b'.repeat(56)}`;
const pollingToken = `default:development.${'c'.repeat(56)}`;
// The frontend API and OFREP share one count: each row below needs a token of its own.
const ofrepToken = `default:development.${'d'.repeat(56)}`;
let server: TestServer;

// Small limits, so a test can cross them: 3 a minute per address, 5 per token.
beforeAll(async () => {
  server = await startTestServer({
    INIT_CLIENT_API_TOKENS: clientToken,
    INIT_FRONTEND_API_TOKENS: `${frontendToken},${pollingToken},${ofrepToken}`,
    REGISTER_CLIENT_RATE_LIMIT_PER_MINUTE: '3',
    CLIENT_METRICS_RATE_LIMIT_PER_MINUTE: '3',
    REGISTER_FRONTEND_RATE_LIMIT_PER_MINUTE: '3',
    FRONTEND_METRICS_RATE_LIMIT_PER_MINUTE: '3',
    FRONTEND_API_RATE_LIMIT_PER_MINUTE: '3',
    SDK_TOKEN_RATE_LIMIT_PER_MINUTE: '5',
  });
  // A flag for each user alone: a frontend answer then depends on the user.
  const f = flags(server);
  await f.create('rollout');
  await f.addStrategy('rollout', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'default', groupId: 'rollout' },
  });
  await f.enable('rollout', 'development');
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
  // Each request for another user: the answers for one context polled again are not counted.
  ['GET', '/api/frontend?userId=', frontendToken, undefined, 200],
  ['POST', '/ofrep/v1/evaluate/flags', ofrepToken, undefined, 200],
];

let user = 0;
/** Another user each time on the evaluation paths, so that each answer has to be worked out. */
const another = (path: string, body: unknown) =>
  path.endsWith('userId=')
    ? { path: `${path}u${user++}`, body }
    : path.startsWith('/ofrep/')
      ? { path, body: { context: { targetingKey: `u${user++}` } } }
      : { path, body };

describe('the SDK paths are limited per address and per token', () => {
  let address = 0;
  for (const [method, path, token, body, ok] of calls) {
    it(`${method} ${path}: 429 with Retry-After past the limit of an address, then of the token`, async () => {
      const at = address++;
      const call = (n: number) => {
        const sent = another(path, body);
        return server.request(method, sent.path, {
          token,
          body: sent.body,
          remoteAddress: `10.21.${at}.${n}`,
        });
      };
      for (let i = 0; i < 3; i++) expect((await call(1)).status).toBe(ok);
      const refused = await call(1);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.body).toMatchObject({
        name: 'RateLimitError',
        message: expect.stringContaining('Too many'),
      });
      expect(typeof refused.body.id).toBe('string');

      // Another address may, until the token has had its 5 of the minute.
      expect((await call(2)).status).toBe(ok);
      expect((await call(2)).status).toBe(ok);
      expect((await call(3)).status).toBe(429);
    });
  }

  it('counts frontend evaluations, not answers already written for the same context', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await server.request('GET', '/api/frontend?userId=polling', {
        token: pollingToken,
        remoteAddress: '10.22.0.1',
      });
      expect(res.status).toBe(200);
    }
  });
});
