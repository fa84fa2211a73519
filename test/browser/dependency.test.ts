import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { createUser, type TestUser } from '../server.js';
import { signIn, startUi, type UiHarness } from './ui.js';

const CLIENT = `default:development.${'c'.repeat(56)}`;
let ui: UiHarness;
let viewer: TestUser;
beforeAll(async () => {
  ui = await startUi({ INIT_CLIENT_API_TOKENS: CLIENT });
  const f = flags(ui.server);
  for (const name of ['checkout', 'checkout-upsell']) {
    await f.create(name);
    await f.addStrategy(name, 'development', { name: 'default' });
  }
  await f.enable('checkout-upsell', 'development');
  viewer = await createUser(ui.server, 3);
});
afterAll(() => ui?.close());

async function tryContext(page: Page): Promise<string> {
  await page.goto('/playground');
  await page.getByLabel('appName').fill('shop');
  await page.getByRole('button', { name: 'Try the context' }).click();
  const row = page
    .locator('tr.result-row')
    .filter({ has: page.getByRole('link', { name: 'checkout-upsell' }) });
  await row.waitFor();
  return `${await row.locator('td[data-label=Result]').textContent()}: ${await row.locator('td[data-label=Why] > span').textContent()}`;
}

describe('a dependency', () => {
  it('is added on the flag page, listed on both flags, honoured by the playground and SDKs, and removed', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/checkout-upsell');
    await page.getByRole('button', { name: '+ Add parent flag' }).click();
    const form = page.getByRole('form', { name: 'Parent flag' });
    await form.getByLabel('Parent flag').selectOption('checkout');
    expect(await form.getByLabel('The parent must be').inputValue()).toBe('true');
    await form.getByRole('button', { name: 'Save dependency' }).click();
    await page.getByText('Depends on').waitFor();
    expect(await page.locator('.flag-dependency').textContent()).toContain('Depends oncheckoutbeing on');

    const stored = await ui.server.request('GET', '/api/admin/projects/default/features/checkout-upsell', {
      token: ui.server.adminToken,
    });
    expect(stored.body.dependencies).toEqual([{ feature: 'checkout', enabled: true, variants: [] }]);

    await page.getByRole('link', { name: 'checkout', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'checkout' }).waitFor();
    expect(await page.locator('.flag-dependency').textContent()).toContain('Required bycheckout-upsell');
    // A parent cannot have a parent itself: the page does not offer one.
    expect(await page.getByRole('button', { name: '+ Add parent flag' }).count()).toBe(0);

    // The child is off while its parent is, as the playground says and an SDK gets it.
    expect(await tryContext(page)).toBe("Off: Its parent flag's condition is not met.");
    await flags(ui.server).enable('checkout', 'development');
    expect(await tryContext(page)).toMatch(/^On: /);
    const client = await ui.server.request('GET', '/api/client/features', { token: CLIENT });
    expect(
      client.body.features.find((f: { name: string }) => f.name === 'checkout-upsell').dependencies,
    ).toEqual([expect.objectContaining({ feature: 'checkout', enabled: true })]);

    await page.goto('/projects/default/features/checkout-upsell');
    await page.getByRole('button', { name: 'Remove the dependency on checkout' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('no longer waits for checkout being on');
    await dialog.getByRole('button', { name: 'Remove dependency' }).click();
    await page.getByRole('button', { name: '+ Add parent flag' }).waitFor();
    expect(await page.getByText('Depends on').count()).toBe(0);
    await page.close();
  });

  it('is read-only for a Viewer', async () => {
    await flags(ui.server).addDependency('checkout-upsell', { feature: 'checkout', enabled: false });
    const page = await ui.newPage();
    await signIn(page, viewer.username, viewer.password, '/projects/default/features/checkout-upsell');
    await page.getByText('Depends on').waitFor();
    expect(await page.locator('.flag-dependency').textContent()).toContain('checkoutbeing off');
    for (const name of [/parent flag/, /^Change/, /Remove the dependency/]) {
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    }
    await page.close();
  });
});
