import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  await flags(ui.server).create('settled', { description: 'Before', type: 'release' });
  await adminApi(ui.server).send('POST', '/api/admin/projects/default/stale', {
    features: ['settled'],
    stale: true,
  });
});
afterAll(() => ui?.close());

const read = () => adminApi(ui.server).get('/api/admin/projects/default/features/settled');

describe('a flag’s settings', () => {
  it('changes the description, type and impression data, keeping what the form does not show', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/settled');
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Settings' });
    expect(await form.getByLabel('Description').inputValue()).toBe('Before');
    await form.getByLabel('Description').fill('After: the new checkout');
    await form.getByLabel('Type').selectOption({ label: 'Experiment' });
    await form.getByLabel('Impression data').check();
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();

    const flag = await read();
    expect(flag).toMatchObject({
      description: 'After: the new checkout',
      type: 'experiment',
      impressionData: true,
      // Not on the form, so not lost by it.
      stale: true,
    });
    await page.getByText('After: the new checkout').first().waitFor();
    await page.close();
  });

  it('adds a link with a title and removes it after asking', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/settled/settings');
    const adding = page.getByRole('form', { name: 'Add a link' });
    await adding.getByLabel('Address').fill('https://tickets.example.com/FP-12');
    await adding.getByLabel('Title').fill('FP-12');
    await adding.getByRole('button', { name: 'Add link' }).click();
    await page.getByRole('link', { name: 'FP-12' }).waitFor();
    expect((await read()).links).toEqual([
      expect.objectContaining({ url: 'https://tickets.example.com/FP-12', title: 'FP-12' }),
    ]);
    expect(await adding.getByLabel('Address').inputValue()).toBe('');

    await page.getByRole('button', { name: 'Remove the link FP-12' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove link' }).click();
    await page.getByText('No links yet.').waitFor();
    expect((await read()).links).toEqual([]);
    await page.close();
  });
});
