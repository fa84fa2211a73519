import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { admin } from '../requests.js';
import { createProject, createUser, type TestUser } from '../server.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
let reader: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  ui = await startUi();
  await createProject(ui.server, 'shop');
  await flags(ui.server, 'shop').create('basket');
  await flags(ui.server).create('elsewhere');
  viewer = await createUser(ui.server, 3);
  reader = await createUser(ui.server, 3);
  // A Viewer who may read the project's tokens and nothing more.
  const role = await ui.server.request('POST', '/api/admin/roles', {
    ...admin(ui.server),
    body: { name: 'Token reader', type: 'custom', permissions: [{ name: 'READ_PROJECT_API_TOKEN' }] },
  });
  const granted = await ui.server.request('POST', '/api/admin/projects/shop/access', {
    ...admin(ui.server),
    body: { roles: [role.body.roles.id], users: [reader.id], groups: [] },
  });
  expect(granted.status).toBe(200);
});
afterAll(() => ui?.close());

describe('project API tokens', () => {
  it('are made on the project (the secret shown once, copied), serve only its flags, and are deleted after a confirmation', async () => {
    const page = await ui.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, 'admin', 'unleash4all', '/projects/shop');
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('heading', { level: 1, name: 'API tokens of shop' }).waitFor();
    await page.getByText('This project has no API tokens of its own.').waitFor();

    await page.getByRole('button', { name: 'New API token' }).click();
    await page.getByLabel('Name').fill('shop-backend');
    await page.getByLabel('Environment').selectOption('production');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.locator('.secret code').textContent())!;
    expect(secret).toMatch(/^shop:production\.[0-9a-f]{56}$/);
    await page.locator('.secret').getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);

    const sdk = await ui.server.request('GET', '/api/client/features', { token: secret });
    expect(sdk.body.features.map((f: { name: string }) => f.name)).toEqual(['basket']);

    const row = page.getByRole('row', { name: /shop-backend/ });
    await row.waitFor();
    expect(await row.textContent()).not.toContain(secret);
    await page.reload();
    await row.waitFor();
    expect(await page.locator('.secret').count()).toBe(0);

    await row.getByRole('button', { name: 'Delete shop-backend' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await ui.server.request('GET', '/api/client/features', { token: secret })).status).toBe(200);
    await row.getByRole('button', { name: 'Delete shop-backend' }).click();
    await dialog.getByRole('button', { name: 'Delete token' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await ui.server.request('GET', '/api/client/features', { token: secret })).status).toBe(401);
    await page.close();
  });

  it('are read-only to whoever may only read them, and closed to Viewers', async () => {
    await ui.server.request('POST', '/api/admin/projects/shop/api-tokens', {
      ...admin(ui.server),
      body: { tokenName: 'shop-web', type: 'frontend', environment: 'development' },
    });
    const page = await ui.newPage();
    await signIn(page, reader.username, reader.password, '/projects/shop');
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('row', { name: /shop-web/ }).waitFor();
    expect(await page.getByRole('button', { name: 'New API token' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    await page.close();

    const closed = await ui.newPage();
    await signIn(closed, viewer.username, viewer.password, '/projects/shop');
    await closed.getByRole('heading', { level: 1, name: 'shop' }).waitFor();
    expect(await closed.getByRole('link', { name: 'API tokens' }).count()).toBe(0);
    await closed.goto('/projects/shop/api-tokens');
    await closed.getByRole('alert').filter({ hasText: 'READ_PROJECT_API_TOKEN' }).waitFor();
    expect(await closed.getByRole('button', { name: 'New API token' }).count()).toBe(0);
    await closed.close();
  });
});

describe('a global API token’s expiry', () => {
  it('is changed on the API tokens page; a past date is refused', async () => {
    const made = await ui.server.request('POST', '/api/admin/api-tokens', {
      ...admin(ui.server),
      body: { tokenName: 'nightly-job', type: 'client', environment: 'development' },
    });
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/admin/api-tokens');
    const row = page.getByRole('row', { name: /nightly-job/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Never');
    await row.getByRole('button', { name: 'Change the expiry of nightly-job' }).click();
    await row.getByLabel('New expiry', { exact: true }).fill('2031-03-04T05:06');
    await row.getByRole('button', { name: 'Save' }).click();
    // The list is read again after the save: the row says the new expiry once that answer is in.
    await page
      .getByRole('row', { name: /nightly-job/ })
      .filter({ hasNotText: 'Never' })
      .waitFor();
    await row.getByRole('button', { name: 'Change the expiry of nightly-job' }).waitFor();

    const read = await ui.server.request('GET', '/api/admin/api-tokens/nightly-job', admin(ui.server));
    const local = new Date(read.body.tokens[0].expiresAt);
    expect([local.getFullYear(), local.getMonth(), local.getDate(), local.getHours()]).toEqual([
      2031, 2, 4, 5,
    ]);
    expect((await ui.server.request('GET', '/api/client/features', { token: made.body.secret })).status).toBe(
      200,
    );

    await row.getByRole('button', { name: 'Change the expiry of nightly-job' }).click();
    await row.getByLabel('New expiry', { exact: true }).fill('2001-01-01T00:00');
    await row.getByRole('button', { name: 'Save' }).click();
    await row.getByRole('alert').waitFor();
    await page.close();
  });
});
