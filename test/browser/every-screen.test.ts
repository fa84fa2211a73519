import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { createUser } from '../server.js';
import { signIn, startUi, type UiHarness } from './ui.js';

// Every page of the route table opens for an Admin with real data, and every control on it has a
// name a screen reader can say.
let ui: UiHarness;
const paths: string[] = [];
beforeAll(async () => {
  ui = await startUi();
  const admin = { token: ui.server.adminToken };
  const f = flags(ui.server);
  await f.create('screened');
  await f.addStrategy('screened', 'development', { name: 'default' });
  const segment = await f.createSegment({ name: 'beta', constraints: [] });
  await f.createContextField({ name: 'region', legalValues: [{ value: 'eu' }, { value: 'us' }] });
  await ui.server.request('POST', '/api/admin/metrics/applications/shop', {
    ...admin,
    body: { description: 'Web shop' },
  });
  const user = await createUser(ui.server, 2);
  const group = await ui.server.request('POST', '/api/admin/groups', {
    ...admin,
    body: { name: 'ops', users: [{ user: { id: user.id } }] },
  });
  const role = await ui.server.request('POST', '/api/admin/roles', {
    ...admin,
    body: {
      name: 'Releaser',
      type: 'custom',
      permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' }],
    },
  });
  await ui.server.request('POST', '/api/admin/strategies', {
    ...admin,
    body: { name: 'tenant', parameters: [{ name: 'tenants', type: 'list', required: true }] },
  });
  const strategies = await ui.server.request(
    'GET',
    '/api/admin/projects/default/features/screened/environments/development/strategies',
    admin,
  );
  paths.push(
    '/projects',
    '/create-project',
    '/projects/default',
    '/projects/default?archived=1',
    '/projects/default/access',
    '/projects/default/api-tokens',
    '/projects/default/create-flag',
    '/projects/default/features/screened',
    '/projects/default/features/screened/variants',
    '/projects/default/features/screened/usage',
    '/projects/default/features/screened/history',
    '/projects/default/features/screened/json',
    '/projects/default/features/screened/strategies/new?environment=production',
    `/projects/default/features/screened/strategies/${strategies.body[0].id}?environment=development`,
    '/segments',
    '/create-segment',
    `/segments/${segment.id}`,
    '/strategies',
    '/create-strategy',
    '/strategies/tenant',
    '/strategies/flexibleRollout',
    '/context',
    '/create-context-field',
    '/context/region',
    '/applications',
    '/applications/shop',
    '/events',
    '/playground',
    '/profile',
    '/admin/users',
    '/admin/groups',
    '/create-group',
    `/admin/groups/${group.body.id}`,
    '/admin/roles',
    '/create-role',
    `/admin/roles/${role.body.roles.id}`,
    '/admin/roles/1',
    '/admin/invite-links',
    '/admin/api-tokens',
    '/admin/banners',
    '/admin/oidc',
    '/admin/import-export',
  );
});
afterAll(() => ui?.close());

// The controls on the page that have no name: no label, no aria-label, no text.
const UNNAMED_CONTROLS = `[...document.querySelectorAll('input, select, textarea, button, a[href], [role=switch]')]
  .filter((el) => el.type !== 'hidden' && !el.hidden && el.offsetParent !== null)
  .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.textContent.trim()))
  .map((el) => el.outerHTML.slice(0, 120))`;

describe('every screen', () => {
  it('opens with its title, without errors, every control named', async () => {
    const page = await ui.newPage();
    await signIn(page);
    for (const path of paths) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expect.poll(() => page.locator('.loading').count(), { message: path }).toBe(0);
      expect(await page.locator('[role=alert]').allTextContents(), path).toEqual([]);
      expect(await page.evaluate(UNNAMED_CONTROLS), path).toEqual([]);
      expect(await page.title(), path).toMatch(/ · Flagpole$/);
    }
    await page.close();
  });

  it('answers the not-found page for a path with no screen', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/no/such/screen');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.close();
  });
});
