import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpBrowser } from '../../test/http-browser.js';
import { type OidcFixture, startOidcServer } from '../../test/oidc.js';
import { login } from '../../test/server.js';

let f: OidcFixture;

beforeAll(async () => {
  f = await startOidcServer();
});
afterAll(() => f?.close());

beforeEach(async () => {
  await f.saveSettings(f.settings());
});

function signOut(browser: HttpBrowser) {
  return browser.visit(`${f.flagpole}/logout`, { method: 'POST', from: new URL(`${f.flagpole}/projects`) });
}

async function isSignedIn(session: string | undefined): Promise<boolean> {
  const res = await f.server.request('GET', '/api/admin/user', { cookie: `unleash-session=${session}` });
  return res.status === 200;
}

/** The provider's sign-out page: its form, confirmed as the person would. */
async function confirmAtProvider(browser: HttpBrowser, page: URL) {
  const shown = await browser.visit(page, { from: new URL(f.flagpole) });
  expect(shown.status).toBe(200);
  const action = /<form[^>]*action="([^"]+)"/.exec(shown.text)![1]!;
  const fields = Object.fromEntries(
    [...shown.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
  );
  return browser.visit(new URL(action, page), {
    method: 'POST',
    form: { ...fields, logout: 'yes' },
    from: page,
  });
}

describe('single sign-out', () => {
  it('a form post to /logout ends the session and goes on to the provider with the ID token as hint', async () => {
    const { browser, session } = await f.signIn('alice');
    // Signed in at the provider, a sign-in again asks the person nothing.
    const logins = f.op.seen.logins;
    const again = await f.signIn('alice', undefined, browser);
    expect(f.op.seen.logins).toBe(logins);

    const out = await signOut(browser);
    expect(out.status).toBe(302);
    expect(out.setCookies.some((c) => c.startsWith('unleash-session=;') && c.includes('Max-Age=0'))).toBe(
      true,
    );
    expect(await isSignedIn(again.session)).toBe(false);
    expect(await isSignedIn(session)).toBe(true);
    const end = new URL(out.headers.get('location')!);
    expect(`${end.origin}${end.pathname}`).toBe(`${f.op.issuer}/session/end`);
    expect(end.searchParams.get('client_id')).toBe(f.op.clientId);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${f.flagpole}/`);
    const hint = end.searchParams.get('id_token_hint')!;
    const claims = JSON.parse(Buffer.from(hint.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ iss: f.op.issuer, aud: f.op.clientId, sub: 'alice' });

    const ends = f.op.seen.endSessions;
    const back = await confirmAtProvider(browser, end);
    expect(f.op.seen.endSessions).toBe(ends + 1);
    expect(back.headers.get('location')).toBe(`${f.flagpole}/`);
    // Signed out at the provider too: the next sign-in asks the person again.
    expect((await f.signIn('alice', undefined, browser)).session).toBeDefined();
    expect(f.op.seen.logins).toBe(logins + 1);
  });

  it('a script signing out is told where to go in `redirect`', async () => {
    const { session } = await f.signIn('alice');
    const res = await f.server.request('POST', '/logout', { cookie: `unleash-session=${session}` });
    expect(res.status).toBe(200);
    expect(new URL(res.body.redirect).pathname).toBe('/session/end');
    expect(new URL(res.body.redirect).searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(await isSignedIn(session)).toBe(false);
  });

  it('without enableSingleSignOut, or for a password session, the sign-out is Flagpole’s alone', async () => {
    await f.saveSettings(f.settings({ enableSingleSignOut: false }));
    const { browser, session } = await f.signIn('alice');
    const out = await signOut(browser);
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/');
    expect(await isSignedIn(session)).toBe(false);
    const other = await f.signIn('alice');
    const res = await f.server.request('POST', '/logout', { cookie: `unleash-session=${other.session}` });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');

    await f.saveSettings(f.settings());
    const password = await login(f.server, 'admin', 'unleash4all');
    expect(password.status).toBe(200);
    const byPassword = await f.server.request('POST', '/logout', { cookie: password.cookie });
    expect(byPassword.status).toBe(200);
    expect(byPassword.text).toBe('');
    expect(await isSignedIn(password.cookie.split('=')[1])).toBe(false);
  });

  it('a provider that cannot be reached: signed out of Flagpole, sent home, and logged', async () => {
    const { browser, session } = await f.signIn('alice');
    await f.saveSettings(f.settings({ discoverUrl: 'http://127.0.0.1:9/.well-known/openid-configuration' }));
    const out = await signOut(browser);
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/');
    expect(await isSignedIn(session)).toBe(false);
    expect(f.logLines.some((l) => l.includes('OIDC single sign-out failed'))).toBe(true);
  });
});
