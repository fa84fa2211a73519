import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../server.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
});
afterAll(() => ui?.close());

describe('signing in', () => {
  it('opens the sign-in page of a signed-out browser without an error in the console', async () => {
    const page = await ui.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto('/projects');
    await page.getByLabel('Username or email').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses a wrong password with the server’s message, keeping the username typed', async () => {
    const page = await ui.newPage();
    await page.goto('/');
    await page.getByLabel('Username or email').fill('admin');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/password/i);
    expect(await page.getByLabel('Username or email').inputValue()).toBe('admin');
    expect(await page.getByRole('banner').count()).toBe(0);
    await page.close();
  });

  it('opens the page a deep link asked for, and signing out ends the session', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default');
    expect(new URL(page.url()).pathname).toBe('/projects/default');
    await page.getByRole('heading', { level: 1, name: 'Default' }).waitFor();
    const session = (await page.context().cookies()).find((c) => c.name === 'unleash-session')!;
    const cookie = `unleash-session=${session.value}`;
    expect((await ui.server.request('GET', '/api/admin/user', { cookie })).status).toBe(200);

    await page.getByRole('button', { name: /Account of admin/ }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await ui.server.request('GET', '/api/admin/user', { cookie })).status).toBe(401);
    await page.close();
  });

  it('signs in a user by email', async () => {
    const user = await createUser(ui.server, 2);
    const page = await ui.newPage();
    await signIn(page, `${user.username}@example.com`, user.password);
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.close();
  });
});
