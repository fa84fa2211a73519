import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  errorCode,
  loggedFailures,
  type OidcFixture,
  sessionUser,
  startOidcServer,
} from '../../test/oidc.js';
import { countEvents, lastEvent, STRONG_PASSWORD } from '../../test/server.js';

let f: OidcFixture;

beforeAll(async () => {
  f = await startOidcServer();
  f.op.people.set('bob', { email: 'bob@other.org', email_verified: true });
  f.op.people.set('mallory', { email: 'mallory@evilexample.com', email_verified: true });
  f.op.people.set('carol', { email: 'carol.jones@example.com', email_verified: true, name: 'Carol' });
  f.op.people.set('dave', { email: 'dave@example.com', email_verified: true });
  f.op.people.set('erin', { email: 'erin@example.com', email_verified: false });
  f.op.people.set('frank', { name: 'Frank, who has no e-mail' });
});
afterAll(() => f?.close());

beforeEach(async () => {
  await f.saveSettings(f.settings());
});

describe('sign-in through OpenID Connect', () => {
  it('first sign-in: to the provider with PKCE, state, nonce and acr_values; back with a session; the user created', async () => {
    await f.saveSettings(f.settings({ acrValues: 'urn:flagpole:silver' }));
    const created = await countEvents(f.server, 'user-created');
    const { steps, last, session, callback } = await f.signIn(
      'alice',
      '/auth/oidc/login?redirect=/projects/default?x=1',
    );

    const start = steps[0]!;
    expect(start.status).toBe(302);
    const stateCookie = start.setCookies.find((c) => c.startsWith('flagpole-oidc-state='))!;
    expect(stateCookie).toMatch(/HttpOnly/);
    expect(stateCookie).toMatch(/SameSite=Lax/);
    expect(stateCookie).toMatch(/Path=\/auth\/oidc/);
    expect(new URL(start.headers.get('location')!).origin).toBe(f.op.issuer);
    const asked = f.op.lastAuthorization!.searchParams;
    expect(asked.get('response_type')).toBe('code');
    expect(asked.get('client_id')).toBe(f.op.clientId);
    expect(asked.get('redirect_uri')).toBe(`${f.flagpole}/auth/oidc/callback`);
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(asked.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(asked.get('acr_values')).toBe('urn:flagpole:silver');
    expect(asked.get('scope')).toBe('openid email profile');

    // The provider sent the browser back across sites, with the state cookie (SameSite=Lax).
    expect(callback?.url.pathname).toBe('/auth/oidc/callback');
    expect(last).toBe(callback);
    expect(last.status).toBe(302);
    expect(last.headers.get('location')).toBe('/projects/default?x=1');
    const sessionCookie = last.setCookies.find((c) => c.startsWith('unleash-session='))!;
    expect(sessionCookie).toMatch(/HttpOnly/);
    expect(sessionCookie).toMatch(/SameSite=Lax/);
    expect(
      last.setCookies.some((c) => c.startsWith('flagpole-oidc-state=;') && c.includes('Max-Age=0')),
    ).toBe(true);

    const signedIn = await sessionUser(f.server, session);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: 'alice@example.com', name: 'Alice', rootRole: 3 });
    expect(await countEvents(f.server, 'user-created')).toBe(created + 1);
    const event = await lastEvent(f.server, 'user-created');
    expect(event.data).toMatchObject({ id: signedIn.body.user.id, email: 'alice@example.com', rootRole: 3 });
    expect(event.createdBy).toBe('system');
  });

  it('a second sign-in of the same person: the same user, a new session, the keys not fetched again', async () => {
    const first = await f.signIn('alice');
    const created = await countEvents(f.server, 'user-created');
    const keySets = f.op.seen.keySets;
    const second = await f.signIn('alice');
    expect(second.last.headers.get('location')).toBe('/');
    expect(second.session).toBeDefined();
    expect(second.session).not.toBe(first.session);
    const [a, b] = [await sessionUser(f.server, first.session), await sessionUser(f.server, second.session)];
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.user.id).toBe(a.body.user.id);
    expect(b.body.user.seenAt).not.toBeNull();
    expect(await countEvents(f.server, 'user-created')).toBe(created);
    expect(f.op.seen.keySets).toBe(keySets);
  });

  it('matches a user an Admin made by e-mail, whatever its case, without creating one', async () => {
    await f.saveSettings(f.settings({ autoCreate: false }));
    const made = await f.server.request('POST', '/api/admin/user-admin', {
      token: f.server.adminToken,
      body: {
        email: 'Carol.Jones@Example.COM',
        name: 'Carol J',
        rootRole: 'Editor',
        password: STRONG_PASSWORD,
      },
    });
    expect(made.status).toBe(201);
    const created = await countEvents(f.server, 'user-created');
    const { session } = await f.signIn('carol');
    const signedIn = await sessionUser(f.server, session);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: made.body.id, rootRole: 2 });
    expect(await countEvents(f.server, 'user-created')).toBe(created);
  });

  it('creates users only for addresses in emailDomains (the whole domain)', async () => {
    const created = await countEvents(f.server, 'user-created');
    for (const subject of ['bob', 'mallory']) {
      const { last, session } = await f.signIn(subject);
      expect(last.status).toBe(403);
      expect(errorCode(last)).toBe('domain-not-allowed');
      expect(last.headers.get('content-type')).toMatch(/^text\/html/);
      expect(last.text).toContain('Ask an Admin');
      expect(session).toBeUndefined();
    }
    expect(await countEvents(f.server, 'user-created')).toBe(created);
    expect(loggedFailures(f.logLines)).toContain('domain-not-allowed');

    // The change counts at the next sign-in.
    await f.saveSettings(f.settings({ emailDomains: 'example.com, @other.org' }));
    const { session } = await f.signIn('bob');
    expect((await sessionUser(f.server, session)).body.user.email).toBe('bob@other.org');
  });

  it('without autoCreate, someone unknown is asked to get an invitation', async () => {
    await f.saveSettings(f.settings({ autoCreate: false }));
    const created = await countEvents(f.server, 'user-created');
    const { last, session } = await f.signIn('dave');
    expect(last.status).toBe(403);
    expect(errorCode(last)).toBe('not-invited');
    expect(last.text).toContain('There is no Flagpole user with the e-mail address dave@example.com');
    expect(session).toBeUndefined();
    expect(await countEvents(f.server, 'user-created')).toBe(created);
  });

  it('defaultRootRole is Editor unless set', async () => {
    const { defaultRootRole: _, ...rest } = f.settings();
    await f.saveSettings(rest);
    const { session } = await f.signIn('dave');
    expect((await sessionUser(f.server, session)).body.user).toMatchObject({
      email: 'dave@example.com',
      rootRole: 2,
    });
  });

  it('refuses an address the provider has not verified, and a person without one', async () => {
    for (const [subject, code] of [
      ['erin', 'email-not-verified'],
      ['frank', 'no-email'],
    ] as const) {
      const { last, session } = await f.signIn(subject);
      expect(last.status).toBe(403);
      expect(errorCode(last)).toBe(code);
      expect(session).toBeUndefined();
    }
  });

  it('a person who says no at the provider gets a page saying so', async () => {
    f.op.refuseWith = 'access_denied';
    try {
      const { last, session } = await f.signIn('alice');
      expect(last.status).toBe(403);
      expect(errorCode(last)).toBe('provider-refused');
      expect(last.text).toContain('access_denied');
      expect(session).toBeUndefined();
    } finally {
      f.op.refuseWith = undefined;
    }
  });

  it('the page to return to must be a path of this site', async () => {
    for (const redirect of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      'projects',
      '/a\tb',
    ]) {
      const { last } = await f.signIn('alice', `/auth/oidc/login?redirect=${encodeURIComponent(redirect)}`);
      expect(last.url.pathname, redirect).toBe('/auth/oidc/login');
      expect(last.status, redirect).toBe(400);
      expect(errorCode(last)).toBe('bad-redirect');
    }
    const twice = await f.signIn('alice', '/auth/oidc/login?redirect=/a&redirect=/b');
    expect(twice.last.status).toBe(400);
    const { last } = await f.signIn(
      'alice',
      `/auth/oidc/login?redirect=${encodeURIComponent('/features?q=a b#top')}`,
    );
    expect(last.headers.get('location')).toBe('/features?q=a%20b#top');
  });

  it('answers 404 when OpenID Connect sign-in is not enabled, at both ends', async () => {
    const { last: started } = await f.signIn('alice');
    expect(started.status).toBe(302);
    await f.saveSettings(f.settings({ enabled: false }));
    const { last } = await f.signIn('alice');
    expect(last.status).toBe(404);
    expect(errorCode(last)).toBe('oidc-disabled');
    const callback = await f.server.request('GET', '/auth/oidc/callback?code=x&state=y');
    expect(callback.status).toBe(404);
    expect(callback.text).toContain('oidc-disabled');
  });
});
