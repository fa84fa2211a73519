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

    await page.getByRole('link', { name: 'checkout', exact: true }).click();
    const row = page.getByRole('row', { name: /new-basket/ });
    await row.waitFor();
    expect(await row.getByRole('switch').count()).toBe(2);
    expect(
      await row.getByRole('switch', { name: 'new-basket in development' }).getAttribute('aria-checked'),
    ).toBe('false');
    await page.close();
  });
});
