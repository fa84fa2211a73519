import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
});
afterAll(() => ui?.close());

describe('tokens', () => {
  it('an API token’s secret is shown once, copied with a button, and works for SDKs', async () => {
    const page = await ui.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, 'admin', 'unleash4all', '/admin/api-tokens');
    await page.getByRole('button', { name: 'New API token' }).click();
    await page.getByLabel('Name').fill('checkout-service');
    await page.getByLabel('Environment').selectOption('production');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.locator('.secret code').textContent();
    expect(secret).toMatch(/^\*:production\.[0-9a-f]+$/);
    await page.locator('.secret').getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    expect((await ui.server.request('GET', '/api/client/features', { token: secret! })).status).toBe(200);

    await page.reload();
    const row = page.getByRole('row', { name: /checkout-service/ });
    await row.waitFor();
    expect(await row.textContent()).not.toContain(secret);
    await row.getByRole('button', { name: 'Delete checkout-service' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete token' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await ui.server.request('GET', '/api/client/features', { token: secret! })).status).toBe(401);
    await page.close();
  });

  it('a personal access token acts as the user who made it', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/profile');
    await page.getByLabel('What it is for').fill('deploy script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.locator('.secret code').textContent())!;
    expect(secret).toMatch(/^user:/);
    const me = await ui.server.request('GET', '/api/admin/user', { token: secret });
    expect(me.body.user.username).toBe('admin');
    await page.getByRole('row', { name: /deploy script/ }).waitFor();
    await page.close();
  });
});
