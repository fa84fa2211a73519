import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpBrowser, type Visit } from '../../test/http-browser.js';
import { TestOpenIdProvider } from '../../test/oidc-provider.js';
import { countEvents, lastEvent, startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
let op: TestOpenIdProvider;
let flagpole: string;
const logLines: string[] = [];
const SECRET_KEY = randomBytes(32).toString('hex');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  flagpole = `http://127.0.0.1:${port}`;
  const log = pino({ level: 'info' }, { write: (line: string) => logLines.push(line) });
  server = await startTestServer(
    {
      UNLEASH_URL: flagpole,
      FLAGPOLE_SECRET_KEY: SECRET_KEY,
      // The provider is on loopback: the rule for Flagpole's own outgoing requests must allow it.
      INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
    },
    log,
  );
  await server.app.listen({ port, host: '127.0.0.1' });
  op = await TestOpenIdProvider.start(flagpole);
  op.people.set('alice', { email: 'alice@example.com', email_verified: true, name: 'Alice' });
});

afterAll(async () => {
  await op?.close();
  await server?.close();
});

function settings(overrides: Record<string, unknown> = {}) {
  return {
    enabled: true,
    discoverUrl: op.discoverUrl,
    clientId: op.clientId,
    secret: op.clientSecret,
    autoCreate: true,
    defaultRootRole: 'Viewer',
    emailDomains: 'example.com',
    enableSingleSignOut: true,
    ...overrides,
  };
}

async function saveSettings(body: Record<string, unknown>) {
  const res = await server.request('POST', '/api/admin/auth/oidc/settings', {
    token: server.adminToken,
    body,
  });
  expect(res.status, res.text).toBe(200);
}

/** Signs in as `subject` through the provider in a new browser (or the one given). */
async function signIn(subject: string, path = '/auth/oidc/login', browser = new HttpBrowser()) {
  op.signInAs = subject;
  // Up to the page Flagpole sends the browser to once signed in.
  const steps = await browser.navigate(
    `${flagpole}${path}`,
    (next) => next.origin === flagpole && !next.pathname.startsWith('/auth/oidc/'),
  );
  const last = steps.at(-1)!;
  const callback = steps.find((s) => s.url.pathname === '/auth/oidc/callback');
  return { browser, steps, last, callback, session: browser.cookie(flagpole, 'unleash-session') };
}

function errorCode(visit: Visit): string | undefined {
  return /data-error="([a-z-]+)"/.exec(visit.text)?.[1];
}

describe('sign-in through OpenID Connect', () => {
  beforeEach(async () => {
    await saveSettings(settings());
  });

  it('first sign-in: to the provider with PKCE, state, nonce and acr_values; back with a session; the user created', async () => {
    await saveSettings(settings({ acrValues: 'urn:flagpole:silver' }));
    const created = await countEvents(server, 'user-created');
    const { steps, last, session, callback } = await signIn(
      'alice',
      '/auth/oidc/login?redirect=/projects/default?x=1',
    );

    const start = steps[0]!;
    expect(start.status).toBe(302);
    const stateCookie = start.setCookies.find((c) => c.startsWith('flagpole-oidc-state='))!;
    expect(stateCookie).toMatch(/HttpOnly/);
    expect(stateCookie).toMatch(/SameSite=Lax/);
    expect(stateCookie).toMatch(/Path=\/auth\/oidc/);
    const asked = op.lastAuthorization!;
    expect(new URL(start.headers.get('location')!).origin).toBe(op.issuer);
    expect(asked.searchParams.get('response_type')).toBe('code');
    expect(asked.searchParams.get('client_id')).toBe(op.clientId);
    expect(asked.searchParams.get('redirect_uri')).toBe(`${flagpole}/auth/oidc/callback`);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.searchParams.get('state')).toBeTruthy();
    expect(asked.searchParams.get('nonce')).toBeTruthy();
    expect(asked.searchParams.get('acr_values')).toBe('urn:flagpole:silver');
    expect(asked.searchParams.get('scope')).toBe('openid email profile');

    expect(callback, 'the provider sent the browser back').toBeDefined();
    expect(last.status).toBe(302);
    expect(last.url.pathname).toBe('/auth/oidc/callback');
    expect(last.headers.get('location')).toBe('/projects/default?x=1');
    const sessionCookie = last.setCookies.find((c) => c.startsWith('unleash-session='))!;
    expect(sessionCookie).toMatch(/HttpOnly/);
    expect(sessionCookie).toMatch(/SameSite=Lax/);
    expect(
      last.setCookies.some((c) => c.startsWith('flagpole-oidc-state=;') && c.includes('Max-Age=0')),
    ).toBe(true);

    const me = await server.request('GET', '/api/admin/user', { cookie: `unleash-session=${session}` });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: 'alice@example.com', name: 'Alice', rootRole: 3 });
    expect(await countEvents(server, 'user-created')).toBe(created + 1);
    const event = await lastEvent(server, 'user-created');
    expect(event.data).toMatchObject({ email: 'alice@example.com', rootRole: 3 });
    expect(event.createdBy).toBe('system');
  });
});
