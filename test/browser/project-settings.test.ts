import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  const admin = adminApi(ui.server);
  await admin.send('POST', '/api/admin/projects', {
    id: 'shop',
    name: 'Shop',
    defaultStickiness: 'sessionId',
  });
  await flags(ui.server, 'shop').create('basket');
});
afterAll(() => ui?.close());

describe('a project’s settings', () => {
  it('renames it and changes its description and visibility, keeping its stickiness', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/shop');
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Project settings' });
    expect(await form.getByLabel('Default stickiness').inputValue()).toBe('sessionId');
    await form.getByLabel('Name').fill('Web shop');
    await form.getByLabel('Description').fill('Everything customers buy with');
    await form.getByLabel('Visibility').selectOption('private');
    await form.getByRole('button', { name: 'Save project' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    expect(await adminApi(ui.server).get('/api/admin/projects/shop')).toMatchObject({
      name: 'Web shop',
      description: 'Everything customers buy with',
      mode: 'private',
      defaultStickiness: 'sessionId',
    });
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Web shop' })
      .waitFor();
    await page.close();
  });

  it('makes an environment need change requests, with the approvals they need, and not any more', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/shop/settings');
    const config = () => adminApi(ui.server).get('/api/admin/projects/shop/change-requests/config');
    const production = async () =>
      (await config()).find((e: { environment: string }) => e.environment === 'production');
    const toggle = page.getByRole('switch', { name: 'Change requests in production' });
    await toggle.click();
    await page.locator('[role="switch"][aria-checked="true"]').first().waitFor();
    expect(await production()).toMatchObject({ changeRequestEnabled: true, requiredApprovals: 1 });
    await page.getByLabel('Approvals needed in production').selectOption('2');
    await expect.poll(async () => (await production()).requiredApprovals).toBe(2);
    await toggle.click();
    await page.getByLabel('Approvals needed in production').waitFor({ state: 'detached' });
    expect(await production()).toMatchObject({ changeRequestEnabled: false, requiredApprovals: null });
    await page.close();
  });

  it('deletes it only once its flags are archived, after asking', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/shop/settings');
    const remove = async () => {
      await page.getByRole('button', { name: 'Delete project' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete project' }).click();
    };
    await remove();
    await page
      .getByRole('alert')
      .filter({ hasText: /feature/i })
      .waitFor();
    expect(
      (await ui.server.request('GET', '/api/admin/projects/shop', { token: ui.server.adminToken })).status,
    ).toBe(200);

    await flags(ui.server, 'shop').archive(['basket']);
    await remove();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    expect(
      (await ui.server.request('GET', '/api/admin/projects/shop', { token: ui.server.adminToken })).status,
    ).toBe(404);
    await page.close();
  });
});
