import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  const f = flags(ui.server);
  await f.createContextField({ name: 'region', legalValues: [{ value: 'eu' }, { value: 'us' }] });
  for (const region of ['eu', 'us']) {
    await f.create(`${region}-only`);
    await f.addStrategy(`${region}-only`, 'development', {
      name: 'default',
      title: `Customers in ${region}`,
      constraints: [{ contextName: 'region', operator: 'IN', values: [region] }],
    });
    await f.enable(`${region}-only`, 'development');
  }
});
afterAll(() => ui?.close());

const resultRow = (page: Page, flag: string) =>
  page.locator('tr.result-row').filter({ has: page.getByRole('link', { name: flag, exact: true }) });

describe('the playground', () => {
  it('evaluates every flag for a context: one on, one off, with the constraint that decided', async () => {
    const page = await ui.newPage();
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Playground' }).click();
    await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
    expect(await page.getByLabel('development').isChecked()).toBe(true);
    expect(await page.getByLabel('All projects').isChecked()).toBe(true);

    // Without an appName the server's message is shown beside the field, and nothing else is lost.
    await page.getByLabel('region').fill('eu');
    await page.getByRole('button', { name: 'Try the context' }).click();
    const appName = page.getByLabel('appName');
    await page.waitForSelector('input[aria-invalid=true]');
    expect(await appName.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.field-invalid .field-error').textContent()).toContain('appName');
    expect(await page.getByLabel('region').inputValue()).toBe('eu');

    await appName.fill('shop');
    await page.getByLabel('userId').fill('alice');
    await page.getByRole('button', { name: 'Try the context' }).click();
    await page.getByRole('heading', { name: 'Results' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe('2 flags in development: 1 on, 1 off.');

    const on = resultRow(page, 'eu-only');
    expect(await on.locator('td[data-label=Result]').textContent()).toBe('On');
    // It said "disabled" beside "On": the name SDKs get when no variant applies.
    expect(await on.locator('td[data-label=Variant]').textContent()).toBe('No variant');
    expect(await on.locator('td[data-label=Why]').textContent()).toContain(
      '“Customers in eu” matched (region is one of eu)',
    );
    const off = resultRow(page, 'us-only');
    expect(await off.locator('td[data-label=Result]').textContent()).toBe('Off');
    expect(await off.locator('td[data-label=Why]').textContent()).toContain(
      '“Customers in us”: region is one of us is not met',
    );

    // The details: each strategy with each of its constraints judged.
    const details = off.getByRole('button', { name: 'Details of us-only' });
    expect(await details.getAttribute('aria-expanded')).toBe('false');
    await details.click();
    expect(await details.getAttribute('aria-expanded')).toBe('true');
    const explained = page.locator(`[id="${await details.getAttribute('aria-controls')}"]`);
    await explained.getByText('Not matched').waitFor();
    expect(await explained.textContent()).toContain('the flag is turned on in development');
    expect(await explained.locator('.check-fail').textContent()).toContain('region is one of us not met');
    await details.press('Enter');
    expect(await details.getAttribute('aria-expanded')).toBe('false');
    await page.close();
  });

  it('tries several environments and values at once (the advanced playground)', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/playground');
    await page.getByLabel('production').check();
    await page.getByLabel('appName').fill('shop');
    await page.getByLabel('region').fill('eu, us');
    await page.getByRole('button', { name: 'Try the context' }).click();
    await page.getByRole('heading', { name: 'Results' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe(
      '2 flags in development, production (8 evaluations): 2 on, 6 off.',
    );
    const row = resultRow(page, 'eu-only').filter({ hasText: 'production' }).filter({ hasText: 'region=eu' });
    expect(await row.locator('td[data-label=Why]').textContent()).toContain(
      'The flag is turned off in production.',
    );
    await page.getByLabel('Find a flag').fill('us-');
    expect(await page.locator('tr.result-row').count()).toBe(4);

    // On in development for its region, off in production (turned off there): they differ.
    await page.getByLabel('Find a flag').fill('');
    await page.getByLabel('Only flags that differ between environments').check();
    await page.getByText('1–4 of 4 results').waitFor();
    for (const text of await page.locator('tr.result-row').allTextContents()) {
      expect(/eu-only.*region=eu|us-only.*region=us/.test(text), text).toBe(true);
    }
    await page.getByLabel('Result', { exact: true }).selectOption({ label: 'Only on' });
    await page.getByText('1–2 of 2 results').waitFor();
    expect(await page.locator('tr.result-row td[data-label=Result]').allTextContents()).toEqual(['On', 'On']);
    await page.close();
  });
});
