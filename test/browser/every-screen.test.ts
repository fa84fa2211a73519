import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { createUser, login } from '../server.js';
import { DESKTOP, PHONE, signIn, startUi, type UiHarness } from './ui.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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
  // An impact metric no SDK has sent yet, and a chart of it: the page shows its charts.
  await ui.server.request('POST', '/api/admin/impact-metrics/register', {
    ...admin,
    body: { name: 'checkout_errors', type: 'counter', help: 'Failed checkouts' },
  });
  const chart = await ui.server.request('POST', '/api/admin/impact-metrics/config', {
    ...admin,
    body: { metricName: 'checkout_errors', timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} },
  });
  expect(chart.status, chart.text).toBe(200);
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
  // A release template, and a plan from it with a progression and a safeguard on the flag shown.
  const template = await ui.server.request('POST', '/api/admin/release-plan-templates', {
    ...admin,
    body: {
      name: 'Gradual',
      milestones: [
        {
          name: 'Some',
          sortOrder: 0,
          strategies: [{ name: 'flexibleRollout', parameters: { rollout: '10' } }],
        },
        { name: 'All', sortOrder: 1, strategies: [{ name: 'default' }] },
      ],
    },
  });
  const envPath = '/api/admin/projects/default/features/screened/environments/development';
  await f.enable('screened', 'development');
  const plan = await ui.server.request('POST', `${envPath}/release-plans`, {
    ...admin,
    body: { templateId: template.body.id },
  });
  await ui.server.request('PUT', `${envPath}/progressions/${plan.body.milestones[0].id}`, {
    ...admin,
    body: { targetMilestone: plan.body.milestones[1].id, transitionCondition: { intervalMinutes: 60 } },
  });
  const safeguard = await ui.server.request('PUT', `${envPath}/release-plans/${plan.body.id}/safeguards`, {
    ...admin,
    body: {
      impactMetric: { metricName: 'errors', timeRange: 'hour', aggregationMode: 'rps', labelSelectors: {} },
      triggerCondition: { operator: '>', threshold: 1 },
    },
  });
  expect(safeguard.status, safeguard.text).toBe(204);
  // A project whose production takes change requests, with the admin's draft there.
  await ui.server.request('POST', '/api/admin/projects', {
    ...admin,
    body: { id: 'reviewed', name: 'Reviewed' },
  });
  const gated = flags(ui.server, 'reviewed');
  await gated.create('gated');
  const rollout = await gated.addStrategy('gated', 'production', { name: 'flexibleRollout' });
  await ui.server.request(
    'PUT',
    '/api/admin/projects/reviewed/environments/production/change-requests/config',
    {
      ...admin,
      body: { changeRequestsEnabled: true },
    },
  );
  // A plan there is shown read-only (an admin token skips change requests to add it).
  const gatedPlan = await ui.server.request(
    'POST',
    '/api/admin/projects/reviewed/features/gated/environments/production/release-plans',
    { ...admin, body: { templateId: template.body.id } },
  );
  expect(gatedPlan.status, gatedPlan.text).toBe(200);
  const draft = await ui.server.request(
    'POST',
    '/api/admin/projects/reviewed/environments/production/change-requests',
    {
      cookie: (await login(ui.server, 'admin', 'unleash4all')).cookie,
      body: [
        { feature: 'gated', action: 'updateEnabled', payload: { enabled: true } },
        {
          feature: 'gated',
          action: 'updateStrategy',
          payload: { ...rollout, parameters: { ...rollout.parameters, rollout: '30' } },
        },
      ],
    },
  );
  expect(draft.status, draft.text).toBe(200);
  paths.push(
    '/projects',
    '/flags',
    '/create-project',
    '/projects/default',
    '/projects/default?archived=1',
    '/projects/default/settings',
    '/projects/default/access',
    '/projects/default/api-tokens',
    '/projects/default/create-flag',
    '/projects/default/features/screened',
    '/projects/default/features/screened/variants',
    '/projects/default/features/screened/usage',
    '/projects/default/features/screened/impact-metrics',
    '/projects/default/features/screened/settings',
    '/projects/default/features/screened/history',
    '/projects/default/features/screened/json',
    '/projects/reviewed',
    '/projects/reviewed/features/gated',
    '/projects/reviewed/change-requests',
    `/projects/reviewed/change-requests/${draft.body.id}`,
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
    '/admin/environments',
    '/admin/tag-types',
    '/admin/integrations',
    '/admin/integrations/new?provider=webhook',
    '/admin/banners',
    '/impact-metrics',
    '/admin/oidc',
    '/admin/import-export',
    '/release-templates',
    '/create-release-template',
    `/release-templates/${template.body.id}`,
  );
});
afterAll(() => ui?.close());

// The controls on the page that have no name: no label, no aria-label, no text.
const UNNAMED_CONTROLS = `[...document.querySelectorAll('input, select, textarea, button, a[href], [role=switch]')]
  .filter((el) => el.type !== 'hidden' && !el.hidden && el.offsetParent !== null)
  .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.textContent.trim()))
  .map((el) => el.outerHTML.slice(0, 120))`;

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await expect.poll(() => page.locator('.loading').count(), { message: path }).toBe(0);
}

async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
  return page.evaluate(`(async () => {
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '));
  })()`);
}

describe('every screen', () => {
  it('opens with its title, without errors, every control named', async () => {
    const page = await ui.newPage();
    await signIn(page);
    for (const path of paths) {
      await open(page, path);
      expect(await page.locator('[role=alert]').allTextContents(), path).toEqual([]);
      expect(await page.evaluate(UNNAMED_CONTROLS), path).toEqual([]);
      expect(await page.title(), path).toMatch(/ · Flagpole$/);
    }
    await page.close();
  });

  // axe-core's rules (WCAG 2.1 A and AA): what it calls serious or critical, at laptop and phone width.
  for (const [width, viewport] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    it(`has no serious or critical accessibility violation at ${width} px`, async () => {
      const page = await ui.newPage(viewport);
      await signIn(page);
      const found: string[] = [];
      for (const path of paths) {
        await open(page, path);
        found.push(...(await violations(page)).map((v) => `${path}: ${v}`));
      }
      expect(found).toEqual([]);
      await page.close();
    }, 300_000);
  }

  it('answers the not-found page for a path with no screen', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/no/such/screen');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.close();
  });
});
