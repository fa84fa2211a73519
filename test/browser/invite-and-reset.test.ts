import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../server.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
});
afterAll(() => ui?.close());

/** The path and query of a link Flagpole made with UNLEASH_URL, on the server under test. */
const onServer = (link: string) => {
  const url = new URL(link);
  return url.pathname + url.search;
};

describe('links Flagpole makes', () => {
  it('an invite link opens the sign-up page, which makes a Viewer and signs them in', async () => {
    const invite = await ui.server.request('POST', '/api/admin/invite-link/tokens', {
      token: ui.server.adminToken,
      body: { name: 'team', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(invite.body.url).toMatch(/\/new-user\?invite=/);
    const page = await ui.newPage();
    await page.goto(onServer(invite.body.url));
    await page.getByLabel('Email').fill('newcomer@example.com');
    await page.getByLabel('Name', { exact: true }).fill('New Comer');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('newcomer@example.com');
    // Said once, beside the password (it was said above the form too, word for word).
    expect(await page.getByText('must be at least 10 characters').count()).toBe(1);
    expect(await page.locator('.field-invalid .field-error').textContent()).toContain(
      'at least 10 characters',
    );
    expect(await page.getByRole('alert').textContent()).toBe('The field marked below needs a change.');

    await page.getByLabel('Password').fill('Long-enough-9');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    expect(await page.getByRole('link', { name: 'New project' }).count()).toBe(0);
    const users = await ui.server.request('GET', '/api/admin/user-admin', { token: ui.server.adminToken });
    expect(users.body.users.find((u: { email: string }) => u.email === 'newcomer@example.com').rootRole).toBe(
      3,
    );
    await page.close();
  });

  it('an expired or unknown invite says so instead of showing a form', async () => {
    const page = await ui.newPage();
    await page.goto('/new-user?invite=not-a-real-invite');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('button', { name: 'Create account' }).count()).toBe(0);
    await page.close();
  });

  it('a reset link sets a new password, which then signs in', async () => {
    const user = await createUser(ui.server, 2);
    const reset = await ui.server.request('POST', '/api/admin/user-admin/reset-password', {
      token: ui.server.adminToken,
      body: { id: `${user.username}@example.com` },
    });
    const page = await ui.newPage();
    await page.goto(onServer(reset.body.resetPasswordUrl));
    await page.getByLabel('New password', { exact: true }).fill('Brand-new-pass-7');
    await page.getByLabel('New password, again').fill('Brand-new-pass-7');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set.').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, user.username, 'Brand-new-pass-7');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.close();
  });

  it('a user created without a password gets a link to set one, shown to the admin at once', async () => {
    // It was created with no link shown: nobody could sign in as them.
    const admin = await ui.newPage();
    await signIn(admin, 'admin', 'unleash4all', '/admin/users');
    await admin.getByRole('button', { name: 'New user' }).click();
    await admin.getByLabel('Email').fill('later@example.com');
    await admin.getByLabel('Name', { exact: true }).fill('Comes Later');
    await admin.getByRole('button', { name: 'Create user' }).click();
    const shown = admin.getByRole('status').filter({ hasText: 'Comes Later has no password yet' });
    await shown.waitFor();
    const link = (await shown.locator('code').textContent())!;
    expect(link).toMatch(/\/reset-password\?token=/);
    await admin.getByRole('row', { name: /Comes Later/ }).waitFor();

    const page = await ui.newPage();
    await page.goto(onServer(link));
    await page.getByLabel('New password', { exact: true }).fill('Finally-here-8');
    await page.getByLabel('New password, again').fill('Finally-here-8');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set.').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, 'later@example.com', 'Finally-here-8');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await admin.close();
    await page.close();
  });
});
