import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  const f = flags(ui.server);
  await f.create('logged');
  await f.create('other');
  await f.enable('logged', 'development');
});
afterAll(() => ui?.close());

describe('the event log', () => {
  it('lists events newest first, filtered by type and flag, with their data', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/events');
    const events = page.getByRole('list', { name: 'Events, newest first' });
    await events.waitFor();
    expect(await events.getByRole('listitem').first().textContent()).toContain('feature-environment-enabled');

    await page.getByLabel('Event type').fill('feature-created');
    await page.getByRole('button', { name: 'Filter' }).click();
    const types = () => events.locator('.event-type').allTextContents();
    await expect.poll(types).toEqual(['feature-created', 'feature-created']);

    await page.getByLabel('Flag').fill('logged');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(types).toEqual(['feature-created']);
    const event = events.getByRole('listitem').first();
    await event.getByText('Details').click();
    expect(await event.locator('pre').textContent()).toContain('"name": "logged"');
    await page.close();
  });

  it('shows a flag’s own history on the flag page', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/logged/history');
    const events = page.getByRole('list', { name: 'Events, newest first' });
    await events.waitFor();
    const types = await events.locator('.event-type').allTextContents();
    expect(types).toEqual(['feature-environment-enabled', 'feature-strategy-add', 'feature-created']);
    await page.close();
  });
});
