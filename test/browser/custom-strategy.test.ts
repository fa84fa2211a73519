import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  await flags(ui.server).create('tenant-flag');
});
afterAll(() => ui?.close());

describe('a custom strategy', () => {
  it('is defined on the Strategies screen, used on a flag, deprecated and kept while in use', async () => {
    const page = await ui.newPage();
    await signIn(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Strategies' }).click();
    await page.getByRole('heading', { level: 1, name: 'Strategies' }).waitFor();
    await page.getByRole('link', { name: 'New custom strategy' }).click();
    await page.getByRole('heading', { level: 1, name: 'New custom strategy' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('tenant');
    await page.getByLabel('Title (optional)').fill('Tenants');
    await page.getByLabel('Description').fill('On for the listed tenants');
    await page.getByRole('button', { name: 'Add parameter' }).click();
    await page.getByLabel('Parameter 1 name').fill('tenants');
    await page.getByLabel('Parameter 1 type').selectOption('list');
    await page.getByLabel('Parameter 1 required').check();
    await page.getByRole('button', { name: 'Add parameter' }).click();
    await page.getByLabel('Parameter 2 name').fill('limit');
    await page.getByLabel('Parameter 2 type').selectOption('number');
    await page.getByRole('button', { name: 'Create strategy' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();

    const stored = await ui.server.request('GET', '/api/admin/strategies/tenant', {
      token: ui.server.adminToken,
    });
    expect(stored.body).toMatchObject({
      name: 'tenant',
      title: 'Tenants',
      parameters: [
        { name: 'tenants', type: 'list', required: true },
        { name: 'limit', type: 'number', required: false },
      ],
    });

    // A taken name comes back beside the name field.
    await page.goto('/create-strategy');
    await page.getByLabel('Name', { exact: true }).fill('tenant');
    await page.getByRole('button', { name: 'Create strategy' }).click();
    await page.locator('.field-error').filter({ hasText: 'already exists' }).waitFor();

    await page.goto('/projects/default/features/tenant-flag');
    await page.getByRole('link', { name: 'Add strategy in development' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add strategy in development' }).waitFor();
    await page.getByLabel('Strategy type').selectOption('tenant');
    await page.getByLabel('tenants', { exact: true }).fill('acme,globex');
    await page.getByLabel('limit', { exact: true }).fill('5');
    await page.getByRole('button', { name: 'Add strategy' }).click();
    await page
      .getByRole('list', { name: /Strategies in development/ })
      .getByRole('listitem')
      .first()
      .waitFor();

    const strategies = await ui.server.request(
      'GET',
      '/api/admin/projects/default/features/tenant-flag/environments/development/strategies',
      { token: ui.server.adminToken },
    );
    expect(strategies.body).toMatchObject([
      { name: 'tenant', parameters: { tenants: 'acme,globex', limit: '5' } },
    ]);

    // Deprecated, it is no longer offered for new strategies; delete is refused while the flag uses it.
    await page.goto('/strategies/tenant');
    await page.getByRole('button', { name: 'Deprecate' }).click();
    await page.getByRole('button', { name: 'Reactivate' }).waitFor();
    await page.goto('/projects/default/features/tenant-flag/strategies/new?environment=production');
    await page.getByLabel('Strategy type').waitFor();
    expect(await page.getByLabel('Strategy type').locator('option').allTextContents()).not.toContain(
      'Tenants',
    );
    await page.goto('/strategies/tenant');
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('deprecate it instead');
    await dialog.getByRole('button', { name: 'Delete strategy' }).click();
    await page.getByRole('alert').filter({ hasText: 'tenant-flag' }).waitFor();
    expect(
      (await ui.server.request('GET', '/api/admin/strategies/tenant', { token: ui.server.adminToken }))
        .status,
    ).toBe(200);
    await page.close();
  });
});
