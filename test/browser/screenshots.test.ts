import { afterAll, beforeAll, describe, it } from 'vitest';
import { flags } from '../flags.js';
import {
  DESKTOP,
  PHONE,
  SCREENSHOT_ENV,
  SCREENSHOT_PASSWORD,
  screenshot,
  signIn,
  startUi,
  type UiHarness,
} from './ui.js';

// The main screens with data a team would have, at laptop and at phone width, written to
// ui/screenshots/ so that a change of how they look shows in review.
let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi(SCREENSHOT_ENV);
  const f = flags(ui.server);
  const eu = await f.createSegment({
    name: 'eu-customers',
    description: 'Customers in the EU',
    constraints: [{ contextName: 'region', operator: 'STR_STARTS_WITH', values: ['eu-'] }],
  });
  await f.create('new-checkout', { description: 'The one-page checkout', type: 'release' });
  await f.addStrategy('new-checkout', 'development', { name: 'default' });
  await f.addStrategy('new-checkout', 'production', {
    name: 'flexibleRollout',
    title: 'Beta customers',
    parameters: { rollout: '25', stickiness: 'userId', groupId: 'new-checkout' },
    constraints: [
      { contextName: 'appName', operator: 'IN', values: ['web', 'ios'] },
      { contextName: 'version', operator: 'SEMVER_GT', value: '2.3.0' },
    ],
    segments: [eu.id],
  });
  await f.addStrategy('new-checkout', 'production', {
    name: 'userWithId',
    parameters: { userIds: 'alice,bob' },
  });
  await f.enable('new-checkout', 'development');
  await f.enable('new-checkout', 'production');
  await f.setVariants('new-checkout', 'development', [
    { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
    {
      name: 'green',
      weight: 200,
      weightType: 'fix',
      stickiness: 'default',
      payload: { type: 'string', value: 'g' },
    },
  ]);
  await f.tag('new-checkout', 'simple', 'checkout');
  await f.tag('new-checkout', 'simple', 'q4');
  await f.create('search-v2', { description: 'Search ranked by the new model', type: 'experiment' });
  await f.enable('search-v2', 'development');
  await f.tag('search-v2', 'simple', 'search');
  await f.addDependency('search-v2', { feature: 'new-checkout', variants: ['blue'] });
  await f.create('payments-kill-switch', { description: 'Stops card payments', type: 'kill-switch' });
  await f.create('legacy-banner', { type: 'operational' });
  await ui.server.request('PATCH', '/api/admin/projects/default/features/legacy-banner', {
    token: ui.server.adminToken,
    body: [{ op: 'replace', path: '/stale', value: true }],
  });
  await ui.server.request('POST', '/api/admin/banners', {
    token: ui.server.adminToken,
    body: { message: 'Maintenance on **Sunday** from 02:00 UTC', variant: 'warning' },
  });
});
afterAll(() => ui?.close());

describe('screenshots of the main screens', () => {
  for (const [viewport, suffix] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    it(`at ${suffix} width`, async () => {
      const page = await ui.newPage(viewport);
      await signIn(page, 'admin', SCREENSHOT_PASSWORD, '/projects/default');
      await page.getByRole('row', { name: /new-checkout/ }).waitFor();
      await screenshot(page, `flag-list-${suffix}`);

      await page.goto('/projects/default/features/new-checkout');
      await page.getByRole('list', { name: /Strategies in production/ }).waitFor();
      await page.getByText('eu-customers').waitFor();
      await page.getByText('Required by').waitFor();
      await screenshot(page, `flag-page-${suffix}`);

      await page.goto('/playground');
      await page.getByLabel('production').check();
      await page.getByLabel('appName').fill('web');
      await page.getByLabel('userId').fill('alice');
      for (const [name, value] of [
        ['region', 'eu-west'],
        ['version', '2.4.0'],
      ]) {
        await page.getByRole('button', { name: 'Add property' }).click();
        await page.getByLabel('Name').last().fill(name!);
        await page.getByLabel('Value').last().fill(value!);
      }
      await page.getByRole('button', { name: 'Try the context' }).click();
      await page.getByRole('heading', { name: 'Results' }).waitFor();
      const details = page.getByRole('button', { name: 'Details of new-checkout (production)' });
      await details.click();
      await page.getByText('Segment eu-customers').waitFor();
      await details.blur();
      await screenshot(page, `playground-${suffix}`);
      await page.close();
    });
  }
});
