import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { freePort } from '../oidc.js';
import { TestOpenIdProvider } from '../oidc-provider.js';
import { admin } from '../requests.js';
import { signIn, startUi, type UiHarness } from './ui.js';

// Signing in through a real OpenID provider (oidc-provider, with its own login and consent pages)
// from the sign-in page, and turning password sign-in off from the single sign-on screen.
let ui: UiHarness;
let op: TestOpenIdProvider;

beforeAll(async () => {
  const port = await freePort();
  const flagpole = `http://127.0.0.1:${port}`;
  ui = await startUi(
    {
      UNLEASH_URL: flagpole,
      FLAGPOLE_SECRET_KEY: randomBytes(32).toString('hex'),
      // The provider is on loopback: Flagpole's rule for its own outgoing requests must allow it.
      INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
    },
    port,
  );
  op = await TestOpenIdProvider.start(flagpole, { loginPages: true });
  op.people.set('bob', { email: 'bob@example.com', email_verified: true, name: 'Bob Builder' });
  await flags(ui.server).create('sso-flag');
});
afterAll(async () => {
  await op?.close();
  await ui?.close();
});

async function saveOidcSettings(overrides: Record<string, unknown> = {}) {
  const res = await ui.server.request('POST', '/api/admin/auth/oidc/settings', {
    ...admin(ui.server),
    body: {
      enabled: true,
      discoverUrl: op.discoverUrl,
      clientId: op.clientId,
      secret: op.clientSecret,
      autoCreate: true,
      defaultRootRole: 'Admin',
      emailDomains: 'example.com',
      enableSingleSignOut: true,
      ...overrides,
    },
  });
  expect(res.status, res.text).toBe(200);
}

/** A page that reaches only the servers of the test (the provider's page asks for a web font). */
async function newPage(): Promise<Page> {
  const page = await ui.newPage();
  await page.context().route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.abort(),
  );
  return page;
}

const passwordSwitch = (page: Page) => page.getByRole('switch', { name: 'Password sign-in' });

describe('single sign-on in the browser', () => {
  it('refuses to turn password sign-in off while OpenID Connect is off, saying why beside the switch', async () => {
    await saveOidcSettings({ enabled: false });
    const page = await newPage();
    await page.goto('/admin/oidc');
    await page.getByLabel('Username or email').waitFor();
    expect(await page.getByRole('link', { name: /Sign in with/ }).count()).toBe(0);
    await signIn(page, 'admin', 'unleash4all', '/admin/oidc');
    await passwordSwitch(page).click();
    const refusal = page.locator('.switch-with-state + [role=alert]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/OpenID Connect sign-in is not enabled/);
    await page.locator('[role=switch][aria-checked=true]').waitFor();
    // The client secret is the server's, masked.
    const secret = page.getByLabel('Client secret');
    expect(await secret.getAttribute('type')).toBe('password');
    expect(await secret.inputValue()).toBe(op.clientSecret);
    await page.close();
  });

  it('signs a new person in from a deep link, turns password sign-in off, and signs out at the provider too', async () => {
    await saveOidcSettings();
    const page = await newPage();
    await page.goto('/projects/default/features/sso-flag');
    // Both ways in: the provider's button and the password form.
    await page.getByLabel('Username or email').waitFor();
    await page.getByRole('link', { name: 'Sign in with OpenID Connect' }).click();

    // The provider's own pages: its login form (any password), then its consent.
    await page.locator('input[name=login]').fill('bob');
    await page.locator('input[name=password]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    // Back on the page asked for, signed in as the user created for Bob.
    await page.getByRole('heading', { level: 1, name: 'sso-flag' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects/default/features/sso-flag');
    await page.getByRole('button', { name: 'Account of Bob Builder' }).waitFor();
    const users = await ui.server.request('GET', '/api/admin/user-admin', admin(ui.server));
    expect(users.body.users.map((u: { email: string }) => u.email)).toContain('bob@example.com');

    // Bob (an Admin by the settings) turns password sign-in off.
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.getByRole('link', { name: 'Single sign-on' }).click();
    // Verified addresses only, unless turned off: the box starts ticked and saves what it shows.
    const verified = page.getByLabel('Only addresses the provider says are verified');
    expect(await verified.isChecked()).toBe(true);
    await verified.uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = await ui.server.request('GET', '/api/admin/auth/oidc/settings', admin(ui.server));
    expect(saved.body).toMatchObject({ requireEmailVerified: false, emailDomains: 'example.com' });
    await passwordSwitch(page).click();
    await page.locator('[role=switch][aria-checked=false]').waitFor();
    expect(await page.locator('.switch-with-state').textContent()).toBe('Off');
    expect(
      (await ui.server.request('GET', '/api/admin/auth/simple/settings', admin(ui.server))).body,
    ).toEqual({
      disabled: true,
    });

    // Someone else's browser: only the provider's button.
    const other = await newPage();
    await other.goto('/projects');
    await other.getByRole('link', { name: 'Sign in with OpenID Connect' }).waitFor();
    expect(await other.getByLabel('Username or email').count()).toBe(0);
    expect(await other.getByLabel('Password').count()).toBe(0);
    expect(await other.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(0);
    expect(await other.getByRole('link', { name: 'Sign in with OpenID Connect' }).getAttribute('href')).toBe(
      '/auth/oidc/login?redirect=%2Fprojects',
    );
    await other.close();

    // Signing out ends the session here and, confirmed at the provider, there too.
    const session = (await page.context().cookies()).find((c) => c.name === 'unleash-session')!;
    const cookie = `unleash-session=${session.value}`;
    const endSessions = op.seen.endSessions;
    await page.getByRole('button', { name: 'Account of Bob Builder' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === op.issuer);
    expect((await ui.server.request('GET', '/api/admin/user', { cookie })).status).toBe(401);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === ui.base);
    expect(op.seen.endSessions).toBe(endSessions + 1);
    // Back at Flagpole's sign-in page, which offers only the provider.
    await page.getByRole('link', { name: 'Sign in with OpenID Connect' }).waitFor();
    expect(await page.getByLabel('Username or email').count()).toBe(0);
    await page.close();
  });
});
