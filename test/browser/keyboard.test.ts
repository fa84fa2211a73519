import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { signIn, startUi, type UiHarness } from './ui.js';

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
    // The switch kept the focus through its request (it was disabled meanwhile, and the focus
    // fell to the page: a screen reader lost its place).
    expect(await focusedName(page)).toBe('by-keys in development');
    await page.keyboard.press('Space');
    await page.waitForSelector('[aria-label="by-keys in development"][aria-checked=false]');
    expect(await focusedName(page)).toBe('by-keys in development');
    await page.keyboard.press('Space');
    await page.waitForSelector('[aria-label="by-keys in development"][aria-checked=true]');

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

/** WCAG's contrast ratio of two colours given as `rgb(r, g, b)`. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('the focus ring', () => {
  // It was amber (#f59e0b), 2.1:1 against the white page: WCAG 1.4.11 asks 3:1.
  it('stands out 3:1 from what it is drawn on, on the page, in a table and in the header', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default');
    await page.getByRole('row', { name: /by-keys/ }).waitFor();
    const targets = [
      page.getByRole('switch', { name: 'by-keys in development' }),
      page.getByRole('link', { name: 'by-keys', exact: true }),
      page.getByRole('button', { name: 'Admin', exact: true }),
      page.getByRole('link', { name: 'Skip to content' }),
    ];
    for (const target of targets) {
      // Focused from the keyboard, as :focus-visible needs.
      await target.evaluate((el) => el.blur());
      await target.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      const { ring, behind, style } = await target.evaluate((el) => {
        const view = el.ownerDocument.defaultView!;
        const style = view.getComputedStyle(el);
        // What the ring is drawn on: the background just outside it (offset and width past the
        // element's edge), of the topmost element there with a background of its own.
        const box = el.getBoundingClientRect();
        const reach = Number.parseFloat(style.outlineOffset) + Number.parseFloat(style.outlineWidth) + 2;
        const x = box.right + reach < view.innerWidth ? box.right + reach : box.left - reach;
        let behind = 'rgb(255, 255, 255)';
        for (const at of el.ownerDocument.elementsFromPoint(x, box.top + box.height / 2)) {
          const bg = view.getComputedStyle(at).backgroundColor;
          if (!el.contains(at) && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') {
            behind = bg;
            break;
          }
        }
        return { ring: style.outlineColor, behind, style: style.outlineStyle };
      });
      expect(style, await target.evaluate((el) => el.outerHTML.slice(0, 80))).toBe('solid');
      expect(contrast(ring, behind), `${ring} on ${behind}`).toBeGreaterThanOrEqual(3);
    }
    await page.close();
  });
});
