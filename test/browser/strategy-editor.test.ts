import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
let page: Page;
let strategyId: string;
const STRATEGIES = '/api/admin/projects/default/features/tabbed/environments/development/strategies';

beforeAll(async () => {
  ui = await startUi();
  await flags(ui.server).create('tabbed');
  const made = await flags(ui.server).addStrategy('tabbed', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'default', groupId: 'tabbed' },
    variants: [
      {
        name: 'blue',
        weight: 1000,
        weightType: 'variable',
        stickiness: 'userId',
        payload: { type: 'string', value: 'navy' },
      },
    ],
  });
  strategyId = made.id;
  page = await ui.newPage();
  await signIn(page);
});
afterAll(() => ui?.close());

const editorPath = () => `/projects/default/features/tabbed/strategies/${strategyId}?environment=development`;

describe('the strategy editor', () => {
  it('edits the strategy’s own variants on its Variants tab, with payloads and fixed weights', async () => {
    await page.goto(editorPath());
    await page.getByRole('tab', { name: 'Variants' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Variants' });
    const first = panel.getByRole('group', { name: 'Variant 1' });
    expect(await first.getByLabel('Name').inputValue()).toBe('blue');
    await first.getByLabel('Payload value').fill('teal');
    await panel.getByRole('button', { name: 'Add variant' }).click();
    const second = panel.getByRole('group', { name: 'Variant 2' });
    await second.getByLabel('Name').fill('red');
    await second.getByLabel('Weight').selectOption('fix');
    await second.getByLabel('Percent').fill('30');
    await page.getByRole('button', { name: 'Save strategy' }).click();
    await page.waitForURL('**/projects/default/features/tabbed');

    const stored = await adminApi(ui.server).get(`${STRATEGIES}/${strategyId}`);
    expect(stored.variants).toEqual([
      expect.objectContaining({
        name: 'blue',
        weight: 700,
        weightType: 'variable',
        stickiness: 'userId',
        payload: { type: 'string', value: 'teal' },
      }),
      expect.objectContaining({ name: 'red', weight: 300, weightType: 'fix' }),
    ]);
    expect(stored.parameters.rollout).toBe('50');
  });

  it('asks before leaving unsaved edits, and not when nothing changed', async () => {
    await page.goto(editorPath());
    await page.getByLabel('Rollout (%)').fill('80');
    await page.getByRole('link', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByLabel('Rollout (%)').inputValue()).toBe('80');

    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'tabbed' }).click();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL('**/projects/default/features/tabbed');
    expect((await adminApi(ui.server).get(`${STRATEGIES}/${strategyId}`)).parameters.rollout).toBe('50');

    await page.goto(editorPath());
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL('**/projects/default/features/tabbed');
    expect(await dialog.count()).toBe(0);
  });
});
