import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_CLIENT_TOKEN } from '../feature-ops.js';
import { flags } from '../flags.js';
import { writeDirectly } from '../server.js';
import { adminApi } from './admin-api.js';
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

// A release plan run from the browser: a template made on its screen, a plan from it on a flag's
// environment whose second milestone starts by itself, and a safeguard that pauses a plan when an
// SDK reports too many errors.
let ui: UiHarness;
const ENV = (flag: string, environment: string) =>
  `/api/admin/projects/default/features/${flag}/environments/${environment}`;

beforeAll(async () => {
  ui = await startUi({
    ...SCREENSHOT_ENV,
    // The safeguards' check runs on a timer: here every second, not every minute.
    INIT_CLIENT_API_TOKENS: PRODUCTION_CLIENT_TOKEN,
    SAFEGUARD_CHECK_INTERVAL_MS: '1000',
  });
  const f = flags(ui.server);
  await f.create('checkout', { description: 'The one-page checkout', type: 'release' });
  await f.create('payments', { description: 'Card payments by the new provider', type: 'release' });
});
afterAll(() => ui?.close());

const region = (page: Page, environment: string) =>
  page.getByRole('region', { name: environment, exact: true });

/** What an SDK of the shop sends: `count` errors, as an impact metric. */
async function reportErrors(count: number) {
  const sent = await ui.server.request('POST', '/api/client/metrics', {
    token: PRODUCTION_CLIENT_TOKEN,
    body: {
      appName: 'shop',
      environment: 'production',
      impactMetrics: [
        {
          name: 'errors',
          help: 'Errors',
          type: 'counter',
          samples: [{ labels: { appName: 'shop' }, value: count }],
        },
      ],
    },
  });
  expect(sent.status, sent.text).toBeLessThan(300);
}

/** The milestone of the plan shown, by its name. */
const milestone = (page: Page, name: string) =>
  page.locator('.milestone').filter({ has: page.getByRole('heading', { name: new RegExp(`${name}$`) }) });

describe('release plans', () => {
  it('run a template made in the UI on a flag environment, the next milestone starting by itself', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', SCREENSHOT_PASSWORD, '/projects');
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.getByRole('link', { name: 'Release templates' }).click();
    await page.getByRole('heading', { level: 1, name: 'Release templates' }).waitFor();
    await page.getByText('There are no release templates yet.').waitFor();

    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByRole('heading', { level: 1, name: 'New release template' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Gradual rollout');
    await page.getByLabel('Description').fill('Ten percent first, then everyone');
    await page.getByLabel('Milestone name').first().fill('Ten percent');
    await page.getByLabel('Rollout (%)').first().fill('10');
    await page.getByRole('button', { name: 'Add milestone' }).click();
    await page.getByLabel('Milestone name').nth(1).fill('Everyone');
    await page.getByLabel('Rollout (%)').nth(1).fill('100');
    await screenshot(page, 'release-template-form-desktop');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.waitForURL('**/release-templates');
    const row = page.getByRole('row', { name: /Gradual rollout/ });
    await row.getByText('Ten percent → Everyone').waitFor();
    const [template] = await adminApi(ui.server).get('/api/admin/release-plan-templates');
    expect(template.milestones.map((m: { name: string }) => m.name)).toEqual(['Ten percent', 'Everyone']);
    expect(template.milestones[0].strategies[0]).toMatchObject({
      name: 'flexibleRollout',
      parameters: { rollout: '10', groupId: '' },
    });
    for (const [viewport, suffix] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      await page.setViewportSize(viewport);
      await screenshot(page, `release-templates-${suffix}`);
    }

    // Added where the flag is off, the plan waits for its first milestone to be started by hand.
    await page.goto('/projects/default/features/checkout');
    const development = region(page, 'development');
    await development.getByRole('button', { name: 'Add release plan in development' }).click();
    await development.getByLabel('Release template').selectOption({ label: 'Gradual rollout' });
    await development.getByRole('button', { name: 'Add plan' }).click();
    await milestone(page, 'Ten percent').getByText('Not started').waitFor();
    await development.getByRole('button', { name: 'Start Ten percent' }).click();
    await milestone(page, 'Ten percent').getByText('Active', { exact: true }).waitFor();

    await development
      .getByRole('button', { name: 'Proceed to the next milestone automatically after Ten percent' })
      .click();
    await development.getByLabel('Minutes from the start of Ten percent until Everyone starts').fill('1');
    await development.getByRole('button', { name: 'Save progression' }).click();
    await development.getByText('Everyone starts by itself 1 minute after Ten percent starts.').waitFor();
    await development
      .getByRole('timer')
      .getByText(/Everyone starts in \d+ s|Everyone starts in 1 min/)
      .waitFor();
    await page.getByRole('switch', { name: 'checkout in development' }).click();
    await expect.poll(() => flags(ui.server).isEnabled('checkout', 'development')).toBe(true);
    await page.getByRole('switch', { name: 'checkout in development', checked: true }).waitFor();
    for (const [viewport, suffix] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      await page.setViewportSize(viewport);
      await screenshot(page, `release-plan-${suffix}`);
    }

    // The minute is not waited for: the progression's job is made due now.
    await writeDirectly(
      ui.server,
      `UPDATE jobs SET run_at = now() WHERE kind = 'milestone-progression' AND state = 'pending'`,
    );
    await milestone(page, 'Everyone').getByText('Active', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await milestone(page, 'Ten percent').getByText('Done', { exact: true }).count()).toBe(1);
    const [plan] = await adminApi(ui.server).get(`${ENV('checkout', 'development')}/release-plans`);
    expect(plan.activeMilestoneId).toBe(plan.milestones[1].id);
    expect(plan.milestones[0].progressionExecutedAt).toEqual(expect.any(String));
    expect(await page.locator('[role=alert]').count()).toBe(0);
    await page.close();
  }, 90_000);

  it('pause where a safeguard set in the UI trips on the errors an SDK reports', async () => {
    const admin = adminApi(ui.server);
    const template = await admin.send('POST', '/api/admin/release-plan-templates', {
      name: 'Safe rollout',
      milestones: [
        {
          name: 'Staff',
          sortOrder: 0,
          strategies: [{ name: 'flexibleRollout', parameters: { rollout: '5' } }],
        },
        { name: 'All', sortOrder: 1, strategies: [{ name: 'default' }] },
      ],
    });
    await flags(ui.server).enable('payments', 'production');
    const plan = await admin.send('POST', `${ENV('payments', 'production')}/release-plans`, {
      templateId: template.id,
    });
    await admin.send('PUT', `${ENV('payments', 'production')}/progressions/${plan.milestones[0].id}`, {
      targetMilestone: plan.milestones[1].id,
      transitionCondition: { intervalMinutes: 30 },
    });

    const page = await ui.newPage();
    await signIn(page, 'admin', SCREENSHOT_PASSWORD, '/projects/default/features/payments');
    const production = region(page, 'production');
    await production
      .getByRole('timer')
      .getByText(/All starts in 29 min/)
      .waitFor();
    await production.getByRole('button', { name: 'Add safeguard to the release plan in production' }).click();
    await production.getByLabel('Metric', { exact: true }).fill('errors');
    await production.getByLabel('Aggregation').selectOption('count');
    await production.getByLabel('Over', { exact: true }).selectOption('hour');
    await production.getByLabel('Trips when it').selectOption('>');
    await production.getByLabel('Threshold').fill('5');
    await production.getByRole('button', { name: 'Save safeguard' }).click();
    await production.getByText('Pause progressions when errors count over the last hour > 5.').waitFor();

    // An SDK of the shop reports a hundred errors.
    await reportErrors(100);

    await production.getByText(/^Triggered at /).waitFor({ timeout: 30_000 });
    await production.locator('.plan-paused').getByText('Paused').waitFor();
    await milestone(page, 'Staff').getByText('Paused', { exact: true }).waitFor();
    expect(await production.getByRole('timer').count()).toBe(0);
    const [paused] = await admin.get(`${ENV('payments', 'production')}/release-plans`);
    expect(paused.milestones[0].pausedAt).toEqual(expect.any(String));
    expect(paused.safeguards[0].triggeredAt).toEqual(expect.any(String));
    await screenshot(page, 'release-plan-paused-desktop');

    // Resumed, the plan counts down to its next milestone again.
    await production.getByRole('button', { name: 'Resume' }).click();
    await production.getByRole('timer').waitFor();
    expect(await production.locator('.plan-paused').count()).toBe(0);
    await page.close();
  }, 90_000);

  it('switch a flag off where its environment safeguard trips, and say so', async () => {
    await flags(ui.server).enable('checkout', 'production');
    const page = await ui.newPage();
    await signIn(page, 'admin', SCREENSHOT_PASSWORD, '/projects/default/features/checkout');
    const production = region(page, 'production');
    await production.getByRole('button', { name: 'Add safeguard to production' }).click();
    // The errors were reported before: the metric is chosen from those known, with its labels.
    await production.getByLabel('Metric', { exact: true }).selectOption('errors');
    await production.getByLabel('Aggregation').selectOption('count');
    await production.getByRole('group', { name: 'appName' }).getByLabel('shop').check();
    await production.getByLabel('Threshold').fill('5');
    await production.getByRole('button', { name: 'Save safeguard' }).click();
    const words = 'Turn the flag off in production when errors (appName: shop) count over the last hour > 5.';
    await production.getByText(words).waitFor();
    const [saved] = (await adminApi(ui.server).get(ENV('checkout', 'production'))).safeguards;
    expect(saved.impactMetric).toMatchObject({ metricName: 'errors', labelSelectors: { appName: ['shop'] } });

    await reportErrors(50);
    await production.getByText(/^Triggered at /).waitFor({ timeout: 30_000 });
    await page.getByRole('switch', { name: 'checkout in production', checked: false }).waitFor();
    expect(await flags(ui.server).isEnabled('checkout', 'production')).toBe(false);

    await production.getByRole('button', { name: 'Remove the safeguard of production' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove safeguard' }).click();
    await production.getByRole('button', { name: 'Add safeguard to production' }).waitFor();
    expect((await adminApi(ui.server).get(ENV('checkout', 'production'))).safeguards).toEqual([]);
    await page.close();
  }, 90_000);
});
