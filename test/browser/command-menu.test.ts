import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  await adminApi(ui.server).send('POST', '/api/admin/projects', { id: 'mobile', name: 'Mobile apps' });
  await flags(ui.server, 'mobile').create('checkout-offline');
  await flags(ui.server).create('checkout-v2');
});
afterAll(() => ui?.close());

const options = (page: import('playwright-core').Page) =>
  page.getByRole('listbox', { name: 'Places' }).getByRole('option');

describe('the command menu', () => {
  it('opens with Ctrl+K anywhere and goes to a flag of any project with the arrows and Enter', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/segments');
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox', { name: 'Go to a flag, project or screen' });
    await input.waitFor();
    expect(await input.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.type('checkout');
    await options(page).filter({ hasText: 'checkout-offline' }).waitFor();
    expect(await options(page).allTextContents()).toEqual([
      'Flag checkout-offline in mobile',
      'Flag checkout-v2 in default',
    ]);
    expect(await options(page).first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await input.getAttribute('aria-activedescendant')).toBe(
      await options(page).nth(1).getAttribute('id'),
    );
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'checkout-v2' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects/default/features/checkout-v2');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.close();
  });

  it('finds projects by name and screens, and Escape closes it where it was', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects');
    await page.getByRole('button', { name: /^Go to/ }).click();
    // Its code loads on this first use: type once it is there.
    await page.locator('[role=combobox]:focus').waitFor();
    await page.keyboard.type('apps');
    await expect.poll(() => options(page).allTextContents()).toEqual(['Project Mobile apps']);
    await page.getByRole('dialog').getByRole('combobox').fill('event');
    await options(page).filter({ hasText: 'Event log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Event log' }).waitFor();

    await page.keyboard.press('Control+k');
    await page.getByRole('dialog').getByRole('combobox').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/events');
    await page.close();
  });
});
