import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
});
afterAll(() => ui?.close());

const list = async () =>
  (await adminApi(ui.server).get('/api/admin/environments')).environments as {
    name: string;
    type: string;
    enabled: boolean;
  }[];

describe('the environments screen', () => {
  it('creates, retypes, reorders, disables and deletes an environment', async () => {
    const page = await ui.newPage();
    await signIn(page);
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.getByRole('link', { name: 'Environments' }).click();
    await page.getByRole('heading', { level: 1, name: 'Environments' }).waitFor();

    const form = page.getByRole('form', { name: 'New environment' });
    await form.getByLabel('Name').fill('qa');
    await form.getByLabel('Type').selectOption('test');
    await form.getByRole('button', { name: 'Create environment' }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'qa' }) });
    await row.waitFor();
    expect((await list()).map((e) => e.name)).toEqual(['development', 'production', 'qa']);

    await row.getByLabel('Type of qa').selectOption('preproduction');
    await expect.poll(async () => (await list()).find((e) => e.name === 'qa')?.type).toBe('preproduction');

    await row.getByRole('button', { name: 'Move qa up' }).click();
    await expect
      .poll(async () => (await list()).map((e) => e.name))
      .toEqual(['development', 'qa', 'production']);

    await row.getByRole('switch', { name: 'qa enabled' }).click();
    await expect.poll(async () => (await list()).find((e) => e.name === 'qa')?.enabled).toBe(false);

    // Production asks before it is disabled; cancelled, nothing changes.
    const production = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: /^production/ }) });
    await production.getByRole('switch', { name: 'production enabled' }).click();
    await page
      .getByRole('dialog', { name: /Disable the production environment/ })
      .getByRole('button', { name: 'Cancel' })
      .click();
    expect((await list()).find((e) => e.name === 'production')?.enabled).toBe(true);

    await row.getByRole('button', { name: 'Delete qa' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete environment' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await list()).map((e) => e.name)).toEqual(['development', 'production']);
    await page.close();
  });
});
