import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  await flags(ui.server).create('by-keys');
});
afterAll(() => ui?.close());

const focusedName = (page: import('playwright-core').Page) =>
  page.evaluate(`document.activeElement.getAttribute('aria-label') ?? document.activeElement.textContent`);

describe('the keyboard alone', () => {
  it('signs in, reaches a flag’s switch, flips it, and answers the production dialog', async () => {
    const page = await ui.newPage();
    await page.goto('/projects/default');
    // The sign-in page puts the focus in its first field.
    await page.waitForSelector('input[autocomplete=username]:focus');
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('unleash4all');
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /by-keys/ }).waitFor();

    // Skip link first, then on through the page until the development switch has the focus.
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Skip to content');
    for (let i = 0; i < 40 && (await focusedName(page)) !== 'by-keys in development'; i++) {
      await page.keyboard.press('Tab');
    }
    expect(await focusedName(page)).toBe('by-keys in development');
    await page.keyboard.press('Space');
    await page.waitForSelector('[aria-label="by-keys in development"][aria-checked=true]');
    expect(await flags(ui.server).isEnabled('by-keys', 'development')).toBe(true);

    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('by-keys in production');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await focusedName(page)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await flags(ui.server).isEnabled('by-keys', 'production')).toBe(false);

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Turn on in production');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[aria-label="by-keys in production"][aria-checked=true]');
    expect(await flags(ui.server).isEnabled('by-keys', 'production')).toBe(true);
    await page.close();
  });

  it('opens and closes the admin menu, Escape giving the focus back to its button', async () => {
    const page = await ui.newPage();
    await page.goto('/');
    await page.getByLabel('Username or email').fill('admin');
    await page.getByLabel('Password').fill('unleash4all');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('button', { name: 'Admin', exact: true });
    // The state the page shows once it has rendered, waited for rather than read at once.
    const expanded = (value: boolean) => menu.and(page.locator(`[aria-expanded="${value}"]`)).waitFor();
    await menu.focus();
    await page.keyboard.press('Enter');
    await expanded(true);
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Users');
    await page.keyboard.press('Escape');
    await expanded(false);
    expect(await focusedName(page)).toContain('Admin');
    // Escape at once after opening closes it too: the menu listens from the render that opens it
    // (it once listened from the next frame, and an Escape sooner was lost).
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      await expanded(false);
      expect(await focusedName(page)).toContain('Admin');
    }
    await page.close();
  });
});
