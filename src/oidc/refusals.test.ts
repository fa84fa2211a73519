import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpBrowser } from '../../test/http-browser.js';
import {
  errorCode,
  lastFailure,
  loggedFailures,
  type OidcFixture,
  startOidcServer,
} from '../../test/oidc.js';
import { outboundFetch } from '../outbound/fetch.js';
import { parseOutboundRules } from '../outbound/targets.js';
import { OidcProviders } from './provider.js';

let f: OidcFixture;

beforeAll(async () => {
  f = await startOidcServer();
});
afterAll(() => f?.close());

beforeEach(async () => {
  f.op.publishedKeys = undefined;
  f.op.rewriteTokens = undefined;
  await f.saveSettings(f.settings());
});

/** Begins a sign-in and stops where the provider sends the browser back: that URL, not yet visited. */
async function untilCallback(browser = new HttpBrowser()): Promise<{ browser: HttpBrowser; callback: URL }> {
  f.op.signInAs = 'alice';
  let callback: URL | undefined;
  await browser.navigate(`${f.flagpole}/auth/oidc/login`, (next) => {
    if (next.pathname !== '/auth/oidc/callback') return false;
    callback = next;
    return true;
  });
  if (!callback) throw new Error('the provider did not send the browser back');
  return { browser, callback };
}

async function sessionsCount(): Promise<number> {
  const { rows } = await f.server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions');
  return rows[0]!.n;
}

describe('a callback is used once and only by the browser that began the sign-in', () => {
  it('refuses a callback replayed after it signed in', async () => {
    const { browser, callback } = await untilCallback();
    const state = browser.cookie(f.flagpole, 'flagpole-oidc-state')!;
    const done = await browser.visit(callback, { from: new URL(f.op.issuer) });
    expect(done.status).toBe(302);
    const sessions = await sessionsCount();

    // The same answer again, even with the state cookie put back.
    browser.setCookie(f.flagpole, 'flagpole-oidc-state', state, '/auth/oidc');
    const replay = await browser.visit(callback, { from: new URL(f.op.issuer) });
    expect(replay.status).toBe(400);
    expect(errorCode(replay)).toBe('login-used');
    expect(replay.setCookies.some((c) => c.startsWith('unleash-session='))).toBe(false);
    // Without it (another browser): not this browser's sign-in.
    const elsewhere = await new HttpBrowser().visit(callback, { from: new URL(f.op.issuer) });
    expect(elsewhere.status).toBe(400);
    expect(errorCode(elsewhere)).toBe('state-mismatch');
    expect(await sessionsCount()).toBe(sessions);
    expect(loggedFailures(f.logLines)).toEqual(expect.arrayContaining(['login-used', 'state-mismatch']));
  });

  it('refuses a state that does not match, and leaves the sign-in it belongs to usable', async () => {
    const { browser, callback } = await untilCallback();
    for (const state of ['forged', '']) {
      const forged = new URL(callback);
      forged.searchParams.set('state', state);
      const res = await browser.visit(forged, { from: new URL(f.op.issuer) });
      expect(res.status).toBe(400);
      expect(errorCode(res)).toBe('state-mismatch');
      // The state cookie is gone with a failed callback: put it back to go on.
    }
    // Delivered to a browser that did not begin it (a sign-in slipped to someone else): refused.
    const other = await new HttpBrowser().visit(callback, { from: new URL(f.op.issuer) });
    expect(errorCode(other)).toBe('state-mismatch');
    expect(other.setCookies.some((c) => c.startsWith('unleash-session='))).toBe(false);
  });

  it('refuses a sign-in that took longer than ten minutes', async () => {
    const { browser, callback } = await untilCallback();
    await f.server.ctx.db.query("UPDATE oidc_logins SET expires_at = now() - interval '1 second'");
    const res = await browser.visit(callback, { from: new URL(f.op.issuer) });
    expect(res.status).toBe(400);
    expect(errorCode(res)).toBe('login-expired');
  });
});

describe('the ID token is checked', () => {
  it('refuses a token whose content was changed after it was signed', async () => {
    f.op.rewriteTokens = (answer) => {
      const [head, body, signature] = answer.id_token!.split('.');
      const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
      claims.sub = 'mallory';
      const changed = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return { ...answer, id_token: [head, changed, signature].join('.') };
    };
    const { last, session } = await f.signIn('alice');
    expect(last.status).toBe(502);
    expect(errorCode(last)).toBe('invalid-token');
    expect(session).toBeUndefined();
    expect(lastFailure(f.logLines)?.detail).toContain('signature verification failed');
  });

  it('follows a rotation of the provider keys: one fetch of the new key set, and signed in', async () => {
    expect((await f.signIn('alice')).session).toBeDefined();
    f.op.rotateKeys();
    const before = f.op.seen.keySets;
    const { last, session } = await f.signIn('alice');
    expect(last.status, last.text).toBe(302);
    expect(session).toBeDefined();
    expect(f.op.seen.keySets).toBe(before + 1);
    // The keys fetched serve the next sign-in.
    expect((await f.signIn('alice')).session).toBeDefined();
    expect(f.op.seen.keySets).toBe(before + 1);
  });

  it('refuses a token signed by a key the provider does not publish, after fetching its keys once', async () => {
    expect((await f.signIn('alice')).session).toBeDefined();
    f.op.publishedKeys = f.op.keySet;
    f.op.rotateKeys();
    const before = f.op.seen.keySets;
    const { last, session } = await f.signIn('alice');
    expect(last.status).toBe(502);
    expect(errorCode(last)).toBe('invalid-token');
    expect(session).toBeUndefined();
    expect(f.op.seen.keySets).toBe(before + 1);
    expect(lastFailure(f.logLines)?.detail).toContain('no applicable keys found');
  });

  it('refuses a token signed with another algorithm than idTokenSigningAlgorithm', async () => {
    await f.saveSettings(f.settings({ idTokenSigningAlgorithm: 'RS384' }));
    const { last, session } = await f.signIn('alice');
    expect(last.status).toBe(502);
    expect(errorCode(last)).toBe('invalid-token');
    expect(session).toBeUndefined();
    expect(lastFailure(f.logLines)?.detail).toMatch(/alg/);
  });
});

describe('limits', () => {
  it('an address may begin 30 sign-ins in ten minutes, then gets a page saying when to try again', async () => {
    const from = { remoteAddress: '198.51.100.23' };
    for (let i = 0; i < 30; i++) {
      const res = await f.server.request('GET', '/auth/oidc/login', from);
      expect(res.status).toBe(302);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const refused = await f.server.request('GET', '/auth/oidc/login', from);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.text).toContain('data-error="too-many-attempts"');
    expect(refused.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await f.server.request('GET', '/auth/oidc/login')).status).toBe(302);
    expect((await f.server.request('HEAD', '/auth/oidc/login')).status).toBe(404);
  });
});

describe('a provider that does not work', () => {
  it('a wrong client secret: the token endpoint refuses Flagpole, and the secret is not logged', async () => {
    const wrong = 'not-the-right-secret-7c1f0e';
    await f.saveSettings(f.settings({ secret: wrong }));
    const tokens = f.op.seen.tokens;
    const { last, session } = await f.signIn('alice');
    expect(f.op.seen.tokens).toBe(tokens + 1);
    expect(last.status).toBe(502);
    expect(errorCode(last)).toBe('client-rejected');
    expect(last.text).not.toContain(wrong);
    expect(session).toBeUndefined();
    expect(loggedFailures(f.logLines)).toContain('client-rejected');
    expect(f.logLines.join('\n')).not.toContain(wrong);
    expect(f.logLines.join('\n')).not.toContain(f.op.clientSecret);
  });

  it('an answer larger than 1 MiB is not read', async () => {
    f.op.rotateKeys();
    f.op.publishedKeys = { ...(f.op.keySet as object), padding: 'x'.repeat(1024 * 1024) };
    const { last, session } = await f.signIn('alice');
    expect(last.status).toBe(502);
    expect(errorCode(last)).toBe('provider-unreachable');
    expect(lastFailure(f.logLines)?.detail).toContain('larger than 1048576 bytes');
    expect(session).toBeUndefined();
  });

  it('a provider inside the network, unless INTEGRATION_ALLOWED_HOSTS lists it, is not reached', async () => {
    const providers = f.server.ctx.oidc;
    // As after a restart without the variable: loopback is not a public address.
    f.server.ctx.oidc = new OidcProviders(outboundFetch(parseOutboundRules('', 'INTEGRATION_ALLOWED_HOSTS')));
    try {
      const { last, steps } = await f.signIn('alice');
      expect(steps).toHaveLength(1);
      expect(last.status).toBe(502);
      expect(errorCode(last)).toBe('provider-unreachable');
      expect(lastFailure(f.logLines)?.detail).toMatch(/127\.0\.0\.1 is loopback.*INTEGRATION_ALLOWED_HOSTS/);
      const off = await f.server.request('POST', '/api/admin/auth/simple/settings', {
        token: f.server.adminToken,
        body: { disabled: true },
      });
      expect(off.status).toBe(400);
      expect(off.body.message).toContain('INTEGRATION_ALLOWED_HOSTS');
    } finally {
      f.server.ctx.oidc = providers;
    }
  });

  it('an unreachable provider: a page saying so, and the next sign-in asks it again', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await f.saveSettings(
      f.settings({ discoverUrl: `http://127.0.0.1:${port}/.well-known/openid-configuration` }),
    );
    const { last, steps } = await f.signIn('alice');
    expect(steps).toHaveLength(1);
    expect(last.status).toBe(502);
    expect(errorCode(last)).toBe('provider-unreachable');
    expect(last.text).toContain(`http://127.0.0.1:${port}`);
    expect(loggedFailures(f.logLines)).toContain('provider-unreachable');

    await f.saveSettings(f.settings());
    expect((await f.signIn('alice')).session).toBeDefined();
  });
});
