import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
});
afterAll(() => ui?.close());

describe('creating a project and a flag', () => {
  it('makes the project, then a flag in it, which the project lists with its switches', async () => {
    const page = await ui.newPage();
    await signIn(page);
    await page.getByRole('link', { name: 'New project' }).click();
    await page.getByLabel('Id', { exact: true }).fill('checkout');
    await page.getByLabel('Name').fill('Checkout');
    await page.getByLabel('Description').fill('The basket and the payment');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects/checkout');
    await page.getByText('This project has no flags yet.').waitFor();

    await page.getByRole('link', { name: 'New flag' }).click();
    await page.getByLabel('Name').fill('new-basket');
    await page.getByLabel('Type').selectOption('experiment');
    await page.getByLabel('Description').fill('The redesigned basket');
    await page.getByRole('button', { name: 'Create flag' }).click();
    await page.getByRole('heading', { level: 1, name: 'new-basket' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects/checkout/features/new-basket');

    const flag = await ui.server.request('GET', '/api/admin/projects/checkout/features/new-basket', {
      token: ui.server.adminToken,
    });
    expect(flag.body).toMatchObject({
      type: 'experiment',
      description: 'The redesigned basket',
      project: 'checkout',
    });

    // The breadcrumbs name the project as people know it (they showed its id).
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    await trail.getByRole('link', { name: 'Checkout', exact: true }).click();
    const row = page.getByRole('row', { name: /new-basket/ });
    await row.waitFor();
    expect(await row.getByRole('switch').count()).toBe(2);
    expect(
      await row.getByRole('switch', { name: 'new-basket in development' }).getAttribute('aria-checked'),
    ).toBe('false');

    // A page past the end shows the last one (it said "4951–1 of 1 flags" over an empty table).
    await page.goto('/projects/checkout?page=99');
    await page.getByRole('row', { name: /new-basket/ }).waitFor();
    expect(await page.locator('.pager [role=status]').textContent()).toBe('1–1 of 1 flags');
    await page.goto('/projects/checkout/api-tokens');
    await trail.getByRole('link', { name: 'Checkout', exact: true }).waitFor();
    await page.close();
  });
});
