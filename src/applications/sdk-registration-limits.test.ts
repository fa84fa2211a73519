import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/metrics.js';
import { admin } from '../../test/requests.js';
import { countEvents, startTestServer, type TestServer } from '../../test/server.js';

const clientToken = `default:development.${'c'.repeat(56)}`;
const frontendToken = `default:development.${'f'.repeat(56)}`;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    INIT_CLIENT_API_TOKENS: clientToken,
    INIT_FRONTEND_API_TOKENS: frontendToken,
  });
});
afterAll(() => server.close());

const register = (path: string, token: string, body: unknown) =>
  server.request('POST', path, { token, body });
const application = (appName: string) =>
  server.request('GET', `/api/admin/metrics/applications/${appName}`, admin(server));
const now = new Date().toISOString();

describe('what one registration may carry', () => {
  const refusals: [string, Record<string, unknown>, string][] = [
    ['51 strategy names', { strategies: Array.from({ length: 51 }, (_, i) => `s${i}`) }, 'strategies'],
    ['a strategy name of 101 characters', { strategies: ['x'.repeat(101)] }, 'strategies.0'],
    ['an appName of 256 characters', { appName: 'a'.repeat(256) }, 'appName'],
    ['an instanceId of 256 characters', { instanceId: 'i'.repeat(256) }, 'instanceId'],
    ['an sdkVersion of 101 characters', { sdkVersion: 'v'.repeat(101) }, 'sdkVersion'],
  ];
  for (const path of ['/api/client/register', '/api/frontend/client/register']) {
    const token = path.startsWith('/api/client') ? clientToken : frontendToken;
    for (const [what, fields, field] of refusals) {
      it(`${path}: ${what} is 400 ValidationError naming it, and nothing is stored`, async () => {
        const res = await register(path, token, { appName: 'capped', instanceId: 'i', ...fields });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ name: 'ValidationError' });
        expect(res.body.details.map((d: { path: string }) => d.path)).toContain(field);
        expect((await application('capped')).status).toBe(404);
      });
    }
  }

  it('50 strategy names of 100 characters are accepted', async () => {
    const strategies = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, 'x'));
    const res = await register('/api/client/register', clientToken, { appName: 'full', strategies });
    expect(res.status).toBe(202);
    expect((await application('full')).body.strategies).toEqual(strategies);
  });

  it('metrics: more than 1,000 flags or 100 variants of a flag in one report are 400', async () => {
    const toggles = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`f${i}`, { yes: 1, no: 0 }]));
    const variants = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`v${i}`, 1]));
    for (const [path, token] of [
      ['/api/client/metrics', clientToken],
      ['/api/frontend/client/metrics', frontendToken],
    ] as const) {
      const many = await register(path, token, { appName: 'm', bucket: { start: now, stop: now, toggles } });
      expect(many.status).toBe(400);
      expect(many.body).toMatchObject({ name: 'ValidationError', details: [{ path: 'bucket.toggles' }] });
      const bucket = { start: now, stop: now, toggles: { f: { yes: 1, no: 0, variants } } };
      const wide = await register(path, token, { appName: 'm', bucket });
      expect(wide.status).toBe(400);
      expect(wide.body.details.map((d: { path: string }) => d.path)).toContain('bucket.toggles.f.variants');
    }
  });
});

describe('the audit log and SDK registrations', () => {
  it('a frontend registration records no event; its application is still listed', async () => {
    const before = await countEvents(server);
    const strategies = ['default', 'flexibleRollout'];
    const res = await register('/api/frontend/client/register', frontendToken, {
      appName: 'web',
      strategies,
    });
    expect(res.status).toBe(200);
    expect((await application('web')).body.strategies).toEqual(strategies);
    expect(await countEvents(server)).toBe(before);
  });

  it('frontend metrics of a new application record no event either', async () => {
    const before = await countEvents(server);
    const bucket = { start: now, stop: now, toggles: { f: { yes: 1, no: 0 } } };
    const res = await register('/api/frontend/client/metrics', frontendToken, { appName: 'web-2', bucket });
    expect(res.status).toBe(200);
    await eventually(
      () => application('web-2'),
      (r) => r.status === 200,
    );
    expect(await countEvents(server)).toBe(before);
  });

  it("a server-side SDK's new application is announced by its name only, not what it sent", async () => {
    const strategies = ['default', 'custom-one'];
    const res = await register('/api/client/register', clientToken, {
      appName: 'api',
      sdkVersion: 'unleash-client-node:6.1.0',
      strategies,
    });
    expect(res.status).toBe(202);
    const events = await server.request('GET', '/api/admin/events?type=application-created', admin(server));
    const event = events.body.events.find((e: { data: { appName: string } }) => e.data.appName === 'api');
    expect(event.data).toEqual({ appName: 'api' });
  });
});
