import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_SCOPES } from '../../src/events/types.js';
import { flags } from '../flags.js';
import { createUser, writeDirectly } from '../server.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  const api = adminApi(ui.server);
  await api.send('POST', '/api/admin/projects', { id: 'mobile', name: 'Mobile App' });
  await flags(ui.server, 'mobile').create('offline-sync');
  const f = flags(ui.server);
  // Made in 2020: its events are moved back to that January below.
  await f.create('ancient');
  const eve = await createUser(ui.server, 2, 'eve-editor');
  const byEve = await ui.server.request('POST', '/api/admin/projects/default/features', {
    token: eve.pat,
    body: { name: 'by-eve' },
  });
  expect(byEve.status).toBe(201);
  await f.create('rolled');
  const rollout = (percent: number) => ({
    name: 'flexibleRollout',
    parameters: { rollout: String(percent), stickiness: 'default', groupId: 'rolled' },
  });
  const strategy = await f.addStrategy('rolled', 'development', rollout(25));
  await api.send(
    'PUT',
    `/api/admin/projects/default/features/rolled/environments/development/strategies/${strategy.id}`,
    rollout(50),
  );
  await f.create('logged');
  await f.create('other');
  await f.enable('logged', 'development');
  await writeDirectly(
    ui.server,
    `UPDATE events SET created_at = '2020-01-15T12:00:00Z' WHERE feature_name = 'ancient'`,
  );
});
afterAll(() => ui?.close());

const eventList = (page: Page) => page.getByRole('list', { name: 'Events, newest first' });
const types = (page: Page) => () => eventList(page).locator('.event-type').allTextContents();
/** The flags the listed events are of. */
const flagsOf = (page: Page) => () =>
  eventList(page)
    .locator('.event-where span', { hasText: /^flag / })
    .allTextContents();

async function openLog(path = '/events'): Promise<Page> {
  const page = await ui.newPage();
  await signIn(page, 'admin', 'unleash4all', path);
  await page.getByRole('heading', { level: 1, name: 'Event log' }).waitFor();
  return page;
}

describe('the event log', () => {
  it('lists events newest first, filtered by type and flag, with their data', async () => {
    const page = await openLog();
    await eventList(page).waitFor();
    expect(await eventList(page).getByRole('listitem').first().textContent()).toContain(
      'feature-environment-enabled',
    );

    await page.getByLabel('Event type').selectOption('feature-created');
    await expect.poll(types(page)).toEqual(Array(6).fill('feature-created'));

    await page.getByLabel('Flag').fill('logged');
    await expect.poll(types(page)).toEqual(['feature-created']);
    const event = eventList(page).getByRole('listitem').first();
    await event.getByText('Details').click();
    expect(await event.locator('pre').textContent()).toContain('"name": "logged"');
    await page.close();
  });

  it('offers every type of event the server records, to pick', async () => {
    const page = await openLog();
    const offered = (await page.getByLabel('Event type').locator('option').allTextContents()).slice(1);
    expect(offered.sort()).toEqual(Object.keys(EVENT_SCOPES).sort());
    await page.close();
  });

  it('picks a type and a project by its name; the URL keeps the filters, through a reload', async () => {
    const page = await openLog();
    await eventList(page).waitFor();
    await page.getByLabel('Event type').selectOption('feature-created');
    await page.getByLabel('Project').selectOption({ label: 'Mobile App' });
    await expect.poll(flagsOf(page)).toEqual(['flag offline-sync']);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/events');
    expect(Object.fromEntries(url.searchParams)).toEqual({ type: 'feature-created', project: 'mobile' });

    await page.reload();
    await expect.poll(flagsOf(page)).toEqual(['flag offline-sync']);
    expect(await page.getByLabel('Event type').inputValue()).toBe('feature-created');
    expect(await page.getByLabel('Project').inputValue()).toBe('mobile');
    await page.close();
  });

  it('shows the changes of one user, picked by name', async () => {
    const page = await openLog();
    await eventList(page).waitFor();
    await page.getByLabel('Changed by').selectOption({ label: 'eve-editor' });
    // Her access token, then her flag.
    await expect.poll(types(page)).toEqual(['feature-created', 'pat-created']);
    expect(await flagsOf(page)()).toEqual(['flag by-eve']);
    for (const text of await eventList(page).getByRole('listitem').allTextContents())
      expect(text).toContain('by eve-editor');
    expect(new URL(page.url()).searchParams.get('user')).toMatch(/^\d+$/);
    await page.close();
  });

  it('shows the events of a range of days', async () => {
    const page = await openLog();
    await eventList(page).waitFor();
    await page.getByLabel('From').fill('2020-01-15');
    await page.getByLabel('To').fill('2020-01-15');
    await expect.poll(flagsOf(page)).toEqual(['flag ancient']);

    await page.getByLabel('To').fill('');
    await page.getByLabel('From').fill('2020-01-16');
    // Every flag made today, and not the one of 2020.
    await expect
      .poll(async () => [...new Set(await flagsOf(page)())].sort())
      .toEqual(['by-eve', 'logged', 'offline-sync', 'other', 'rolled'].map((f) => `flag ${f}`));
    expect(new URL(page.url()).search).toBe('?from=2020-01-16');
    await page.close();
  });

  it('shows what an update changed, field by field, with the raw JSON a click away', async () => {
    const page = await openLog('/events?feature=rolled&type=feature-strategy-update');
    const event = eventList(page).getByRole('listitem');
    await event.waitFor();
    const row = event.getByRole('row', { name: /^parameters\.rollout/ });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['25', '50']);
    // Only what changed: the strategy's other parameters are the same.
    expect(await event.getByRole('row').count()).toBe(2);
    await event.getByText('Raw JSON').click();
    expect(await event.locator('pre').allTextContents()).toEqual([
      expect.stringContaining('"rollout": "25"'),
      expect.stringContaining('"rollout": "50"'),
    ]);
    await page.close();
  });

  it('says when no event matches the filters, and clears them', async () => {
    const page = await openLog('/events?type=feature-archived&project=mobile');
    await page.getByText('No events match these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await eventList(page).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(await page.getByLabel('Event type').inputValue()).toBe('');
    await page.close();
  });

  it('shows a flag’s own history on the flag page', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/logged/history');
    const events = eventList(page);
    await events.waitFor();
    const types = await events.locator('.event-type').allTextContents();
    expect(types).toEqual(['feature-environment-enabled', 'feature-strategy-add', 'feature-created']);
    await page.close();
  });
});
