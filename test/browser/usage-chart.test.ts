import type { Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { stopSdk } from '../official-sdk.js';
import { startSdk, until } from './sdk.js';
import {
  PHONE,
  SCREENSHOT_ENV,
  SCREENSHOT_PASSWORD,
  screenshot,
  signIn,
  startUi,
  type UiHarness,
} from './ui.js';

const clientToken = `default:development.${'7'.repeat(56)}`;
let ui: UiHarness;
let sdk: Unleash;
beforeAll(async () => {
  ui = await startUi({ ...SCREENSHOT_ENV, INIT_CLIENT_API_TOKENS: clientToken });
  const f = flags(ui.server);
  await f.create('measured', { description: 'Counted by the SDK' });
  await f.addStrategy('measured', 'development', { name: 'userWithId', parameters: { userIds: 'alice' } });
  await f.enable('measured', 'development');
  sdk = await startSdk(ui.base, clientToken, 'checkout-web');
});
afterAll(async () => {
  stopSdk(sdk);
  await ui?.close();
});

async function reported(): Promise<boolean> {
  const res = await ui.server.request('GET', '/api/admin/client-metrics/features/measured/raw?hoursBack=1', {
    token: ui.server.adminToken,
  });
  const yes = res.body.data.reduce((sum: number, b: { yes: number }) => sum + b.yes, 0);
  return yes === 4;
}

describe('the usage chart', () => {
  it('shows what the SDK reported, as a chart and as numbers', async () => {
    for (let i = 0; i < 4; i++) expect(sdk.isEnabled('measured', { userId: 'alice' })).toBe(true);
    for (let i = 0; i < 3; i++) expect(sdk.isEnabled('measured', { userId: 'bob' })).toBe(false);
    await until(reported, 15_000);

    for (const [viewport, suffix] of [
      [undefined, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await ui.newPage(viewport);
      await signIn(page, 'admin', SCREENSHOT_PASSWORD, '/projects/default/features/measured/usage');
      const section = page.getByRole('region', { name: 'development' });
      const table = section.getByRole('table', { name: /Evaluations per hour in development/ });
      await table.waitFor();
      const total = table.locator('tfoot tr');
      expect(await total.locator('td').allTextContents()).toEqual(['4', '3']);
      expect(await section.textContent()).toContain('4 yes, 3 no, from checkout-web');
      expect(await section.locator('.usage-chart canvas').count()).toBe(1);
      expect(await page.getByRole('region', { name: 'production' }).textContent()).toContain(
        'No SDK reported evaluating this flag here',
      );
      await screenshot(page, `usage-chart-${suffix}`);
      await page.close();
    }
  });
});
