import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { pino } from 'pino';
import { expect } from 'vitest';
import { HttpBrowser, type Visit } from './http-browser.js';
import { TestOpenIdProvider } from './oidc-provider.js';
import { type Reply, startTestServer, type TestServer } from './server.js';

/** A port nobody listens on now: for a server whose own URL must be known before it starts. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface SignInResult {
  browser: HttpBrowser;
  steps: Visit[];
  /** Flagpole's last answer: the redirect into the UI, or a page saying why not. */
  last: Visit;
  callback?: Visit;
  /** The session cookie's value, once signed in. */
  session?: string;
}

export interface OidcFixture {
  server: TestServer;
  op: TestOpenIdProvider;
  /** Flagpole's URL (UNLEASH_URL), on a real port. */
  flagpole: string;
  /** Every line Flagpole logged. */
  logLines: string[];
  /** OIDC settings that work with the provider, changed by `overrides`. */
  settings(overrides?: Record<string, unknown>): Record<string, unknown>;
  saveSettings(body: Record<string, unknown>): Promise<void>;
  /** Signs in as `subject` through the provider, in a new browser unless one is given. */
  signIn(subject: string, path?: string, browser?: HttpBrowser): Promise<SignInResult>;
  close(): Promise<void>;
}

/**
 * Flagpole on a real port, its secrets sealed with a key, and a real OpenID provider on loopback
 * that knows Flagpole as a client and Alice (alice@example.com) as a person.
 */
export async function startOidcServer(): Promise<OidcFixture> {
  const port = await freePort();
  const flagpole = `http://127.0.0.1:${port}`;
  const logLines: string[] = [];
  const server = await startTestServer(
    {
      UNLEASH_URL: flagpole,
      FLAGPOLE_SECRET_KEY: randomBytes(32).toString('hex'),
      // The provider is on loopback: the rule for Flagpole's own outgoing requests must allow it.
      INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
    },
    pino({ level: 'info' }, { write: (line: string) => logLines.push(line) }),
  );
  await server.app.listen({ port, host: '127.0.0.1' });
  const op = await TestOpenIdProvider.start(flagpole);
  op.people.set('alice', { email: 'alice@example.com', email_verified: true, name: 'Alice' });

  const settings = (overrides: Record<string, unknown> = {}) => ({
    enabled: true,
    discoverUrl: op.discoverUrl,
    clientId: op.clientId,
    secret: op.clientSecret,
    autoCreate: true,
    defaultRootRole: 'Viewer',
    emailDomains: 'example.com',
    enableSingleSignOut: true,
    ...overrides,
  });

  return {
    server,
    op,
    flagpole,
    logLines,
    settings,
    async saveSettings(body) {
      const res = await server.request('POST', '/api/admin/auth/oidc/settings', {
        token: server.adminToken,
        body,
      });
      expect(res.status, res.text).toBe(200);
    },
    async signIn(subject, path = '/auth/oidc/login', browser = new HttpBrowser()) {
      op.signInAs = subject;
      // Up to the page Flagpole sends the browser to once signed in.
      const steps = await browser.navigate(
        `${flagpole}${path}`,
        (next) => next.origin === flagpole && !next.pathname.startsWith('/auth/oidc/'),
      );
      return {
        browser,
        steps,
        last: steps.at(-1)!,
        callback: steps.find((s) => s.url.pathname === '/auth/oidc/callback'),
        session: browser.cookie(flagpole, 'unleash-session'),
      };
    },
    async close() {
      await op.close();
      await server.close();
    },
  };
}

/** The error code of a failed sign-in's page. */
export function errorCode(visit: Visit): string | undefined {
  return /data-error="([a-z-]+)"/.exec(visit.text)?.[1];
}

interface LoggedFailure {
  code: string;
  detail: string;
}

function failuresIn(lines: string[]): LoggedFailure[] {
  return lines
    .map((line) => JSON.parse(line) as { level: number; msg: string } & LoggedFailure)
    .filter((l) => l.level === 40 && l.msg === `OIDC sign-in failed: ${l.code}`)
    .map(({ code, detail }) => ({ code, detail }));
}

/** The OIDC sign-in failures Flagpole logged (at warn), by code. */
export function loggedFailures(lines: string[]): string[] {
  return failuresIn(lines).map((l) => l.code);
}

/** The last OIDC sign-in failure Flagpole logged. */
export function lastFailure(lines: string[]): LoggedFailure | undefined {
  return failuresIn(lines).at(-1);
}

/** `GET /api/admin/user` with a session cookie: who the session signs in, or 401. */
export function sessionUser(server: TestServer, session: string | undefined): Promise<Reply> {
  return server.request('GET', '/api/admin/user', { cookie: `unleash-session=${session}` });
}
