import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

// The editors of what flags are configured with (segments, context fields, custom strategy types,
// applications): each is opened on an object made through the API with every field set, one visible
// field is changed and saved, and the object read back must differ by that field only.
let ui: UiHarness;
let page: Page;
let api: ReturnType<typeof adminApi>;
beforeAll(async () => {
  ui = await startUi();
  api = adminApi(ui.server);
  page = await ui.newPage();
  await signIn(page);
});
afterAll(() => ui?.close());

describe('the segment editor', () => {
  it('keeps the project and every field of its constraints, shown or not', async () => {
    const made = await api.send('POST', '/api/admin/segments', {
      name: 'kept-segment',
      description: 'Beta users',
      project: 'default',
      constraints: [
        // Ignore case is not shown for IN, nor `value` for a list operator, nor `values` for a single one.
        { contextName: 'userId', operator: 'IN', values: ['alice'], value: 'bob', caseInsensitive: true },
        { contextName: 'appName', operator: 'STR_ENDS_WITH', values: ['-web'], caseInsensitive: true },
        { contextName: 'appName', operator: 'SEMVER_LTE', value: '2.0.0', values: ['old'], inverted: true },
        { contextName: 'currentTime', operator: 'DATE_BEFORE', value: '2040-01-01T00:00:00Z' },
      ],
    });
    const before = await api.get(`/api/admin/segments/${made.id}`);

    await page.goto(`/segments/${made.id}`);
    await page.getByLabel('Description', { exact: true }).fill('Beta testers');
    await page.getByRole('button', { name: 'Save segment' }).click();
    await page.waitForURL('**/segments');

    expect(await api.get(`/api/admin/segments/${made.id}`)).toEqual({
      ...before,
      description: 'Beta testers',
    });
  });
});

describe('the context field editor', () => {
  it('keeps the project, the sort order and the legal values', async () => {
    await api.send('POST', '/api/admin/context', {
      name: 'kept-region',
      description: 'Where the user is',
      stickiness: true,
      sortOrder: 42,
      project: 'default',
      legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }],
    });
    const before = await api.get('/api/admin/context/kept-region');

    await page.goto('/context/kept-region');
    await page.getByLabel('Description', { exact: true }).fill('Where the user lives');
    await page.getByRole('button', { name: 'Save context field' }).click();
    await page.waitForURL('**/context');

    expect(await api.get('/api/admin/context/kept-region')).toEqual({
      ...before,
      description: 'Where the user lives',
    });
  });
});

describe('the custom strategy editor', () => {
  it('keeps the title, the parameters with their descriptions, and the deprecation', async () => {
    await api.send('POST', '/api/admin/strategies', {
      name: 'kept-tenant',
      title: 'Tenants',
      description: 'On for the listed tenants',
      parameters: [
        { name: 'tenants', type: 'list', description: 'Tenant ids', required: true },
        { name: 'limit', type: 'number', description: 'At most', required: false },
      ],
    });
    await api.send('POST', '/api/admin/strategies/kept-tenant/deprecate');
    const before = await api.get('/api/admin/strategies/kept-tenant');

    await page.goto('/strategies/kept-tenant');
    await page.getByLabel('Description', { exact: true }).fill('On for the tenants listed');
    await page.getByRole('button', { name: 'Save strategy' }).click();

    await expect
      .poll(async () => (await api.get('/api/admin/strategies/kept-tenant')).description)
      .toBe('On for the tenants listed');
    expect(await api.get('/api/admin/strategies/kept-tenant')).toEqual({
      ...before,
      description: 'On for the tenants listed',
    });
  });
});

describe('the application editor', () => {
  it('changes only the field changed: empty ones stay empty', async () => {
    await api.send('POST', '/api/admin/metrics/applications/kept-shop', {
      description: 'Web shop',
      color: '#336699',
      strategies: ['default', 'flexibleRollout'],
    });
    const before = await api.get('/api/admin/metrics/applications/kept-shop');

    await page.goto('/applications/kept-shop');
    await page.getByLabel('Description', { exact: true }).fill('The web shop');
    await page.getByRole('button', { name: 'Save details' }).click();

    await expect
      .poll(async () => (await api.get('/api/admin/metrics/applications/kept-shop')).description)
      .toBe('The web shop');
    expect(await api.get('/api/admin/metrics/applications/kept-shop')).toEqual({
      ...before,
      description: 'The web shop',
    });
  });
});
