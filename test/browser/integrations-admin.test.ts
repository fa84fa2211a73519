import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  // The webhook's address is on this machine (nothing listens there: deliveries fail, as logged).
  ui = await startUi({ INTEGRATION_ALLOWED_HOSTS: 'localhost' });
});
afterAll(() => ui?.close());

const addons = async () => (await adminApi(ui.server).get('/api/admin/addons')).addons;

describe('the integrations screen', () => {
  it('creates a webhook, changes it keeping its secrets, switches it off and deletes it', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/admin/integrations');
    await page.getByRole('link', { name: 'New webhook' }).click();
    const form = page.getByRole('form', { name: 'Webhook integration' });
    await form.getByLabel('Description').fill('Chat');
    await form.getByLabel('Webhook URL').fill('http://localhost:9/flags');
    await form.getByLabel('Authorization').fill('Bearer s3cret');
    await form.getByLabel('feature-created', { exact: true }).check();
    await form.getByLabel('Only from projects').fill('default');
    await form.getByRole('button', { name: 'Create integration' }).click();
    await page.getByRole('link', { name: 'Chat' }).waitFor();
    const [made] = await addons();
    expect(made).toMatchObject({
      provider: 'webhook',
      description: 'Chat',
      enabled: true,
      events: ['feature-created'],
      projects: ['default'],
      environments: [],
      parameters: { url: '*****', authorization: '*****' },
    });

    await page.getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('heading', { name: 'Last deliveries' }).waitFor();
    await page.getByLabel('Description').fill('Team chat');
    await page.getByRole('button', { name: 'Save integration' }).click();
    await page.getByRole('link', { name: 'Team chat' }).waitFor();
    const [changed] = await addons();
    // The secrets were not shown, and are still there.
    expect(changed).toMatchObject({ ...made, description: 'Team chat' });

    await page.getByRole('switch', { name: 'Team chat enabled' }).click();
    await expect.poll(async () => (await addons())[0].enabled).toBe(false);
    await page.getByRole('button', { name: 'Delete Team chat' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete integration' }).click();
    await page.getByText('No integrations yet.').waitFor();
    expect(await addons()).toEqual([]);
    await page.close();
  });
});
