import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  await adminApi(ui.server).send('POST', '/api/admin/projects', { id: 'mobile', name: 'Mobile' });
  await flags(ui.server, 'mobile').create('offline-sync', {
    type: 'operational',
    description: 'Works on the train',
  });
  const flag = flags(ui.server);
  const rollout = (percent: number) => ({
    name: 'flexibleRollout',
    parameters: { rollout: String(percent), stickiness: 'default', groupId: 'g' },
  });
  await flag.create('zero-rollout');
  await flag.addStrategy('zero-rollout', 'development', rollout(0));
  await flag.create('quarter');
  await flag.addStrategy('quarter', 'development', rollout(25));
  await flag.create('three-users');
  await flag.addStrategy('three-users', 'development', {
    name: 'userWithId',
    parameters: { userIds: 'a,b,c' },
  });
  await flag.create('plain');
  for (const name of ['zero-rollout', 'quarter', 'three-users']) await flag.enable(name, 'development');
});
afterAll(() => ui?.close());

/** A flag's row of the list. */
const row = (page: Page, flag: string) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name: flag, exact: true }) });

/** What a flag's cell in an environment's column says. */
const cell = (page: Page, flag: string, environment: string) =>
  row(page, flag).locator(`td[data-label="${environment}"]`);

describe('the flag list', () => {
  it('finds a flag of any project from the Flags overview, and shows its project and its type by name', async () => {
    const page = await ui.newPage();
    await signIn(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Flags', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
    await page.getByText('1–5 of 5 flags').waitFor();
    await page.getByLabel('Search').fill('train');
    await page.getByText('1–1 of 1 flags').waitFor();
    const offline = row(page, 'offline-sync');
    expect(await offline.locator('td[data-label=Project]').textContent()).toBe('mobile');
    // The type's name, not its id.
    expect(await offline.locator('td[data-label=Type]').textContent()).toBe('Operational');
    expect(await offline.locator('td[data-label="Last seen"]').textContent()).toBe('Never');
    await offline.getByRole('link', { name: 'offline-sync' }).click();
    await page.getByRole('heading', { level: 1, name: 'offline-sync' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects/mobile/features/offline-sync');
    // There too, the type by its name.
    await page.locator('.flag-meta').getByText('Operational', { exact: true }).waitFor();
    await page.close();
  });

  it('says beside each switch who gets the flag: off, a 0 % rollout that lets nobody in, a rollout, users', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default');
    await row(page, 'plain').waitFor();
    expect(await cell(page, 'zero-rollout', 'development').textContent()).toBe(
      'Off for everyone (0 % rollout)',
    );
    expect(await cell(page, 'quarter', 'development').textContent()).toBe('25 % rollout');
    expect(await cell(page, 'three-users', 'development').textContent()).toBe('3 users');
    expect(await cell(page, 'plain', 'development').textContent()).toBe('Off');

    // Switched on without a strategy, it gets one for everyone, and says so.
    const plain = page.getByRole('switch', { name: 'plain in development' });
    await plain.focus();
    await page.keyboard.press('Space');
    await cell(page, 'plain', 'development').getByText('Everyone').waitFor();
    expect(await plain.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.close();
  });
});
