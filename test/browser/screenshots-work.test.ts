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

// The screens of daily work at scale, written to ui/screenshots/ at laptop and phone width: the
// overview of 10,000 flags in four projects, and the strategy editor's three tabs.
const TYPES = ['release', 'experiment', 'operational', 'kill-switch'];
const PROJECTS = ['web', 'mobile', 'payments', 'search'];

let ui: UiHarness;
let strategyId: string;
beforeAll(async () => {
  ui = await startUi(SCREENSHOT_ENV);
  const features = Array.from({ length: 10_000 }, (_, i) => ({
    name: `${PROJECTS[i % 4]}-flag-${String(i).padStart(5, '0')}`,
    project: PROJECTS[i % 4],
    type: TYPES[i % 4],
    description: i % 3 === 0 ? 'Part of the spring release' : null,
  }));
  const imported = await ui.server.request('POST', '/api/admin/state/import', {
    token: ui.server.adminToken,
    body: {
      version: 1,
      projects: PROJECTS.map((id) => ({ id, name: id[0]!.toUpperCase() + id.slice(1) })),
      features,
    },
  });
  if (imported.status !== 202) throw new Error(imported.text);
  const f = flags(ui.server, 'web');
  await f.addStrategy('web-flag-00000', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '25', stickiness: 'default', groupId: 'web-flag-00000' },
  });
  await f.enable('web-flag-00000', 'development');
  // On for everyone in development, off in production: the playground's filter finds them.
  for (const name of ['web-flag-00008', 'web-flag-00012', 'web-flag-00016'])
    await f.enable(name, 'development');
  const segment = await f.createSegment({ name: 'beta-testers', constraints: [] });
  const made = await f.addStrategy('web-flag-00004', 'development', {
    name: 'flexibleRollout',
    title: 'Beta in the EU',
    parameters: { rollout: '40', stickiness: 'userId', groupId: 'web-flag-00004' },
    constraints: [{ contextName: 'appName', operator: 'IN', values: ['web', 'ios'] }],
    segments: [segment.id],
    variants: [
      { name: 'compact', weight: 0, weightType: 'variable', stickiness: 'userId' },
      {
        name: 'roomy',
        weight: 250,
        weightType: 'fix',
        stickiness: 'userId',
        payload: { type: 'json', value: '{"rows":3}' },
      },
    ],
  });
  strategyId = made.id;
  // A change for the event log's diff: the rollout from 40 to 60.
  await ui.server.request(
    'PUT',
    `/api/admin/projects/web/features/web-flag-00004/environments/development/strategies/${made.id}`,
    { token: ui.server.adminToken, body: { ...made, parameters: { ...made.parameters, rollout: '60' } } },
  );
}, 120_000);
afterAll(() => ui?.close());

describe('screenshots of daily work', () => {
  for (const [viewport, suffix] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    it(`at ${suffix} width`, async () => {
      const page = await ui.newPage(viewport);
      await signIn(page, 'admin', SCREENSHOT_PASSWORD, '/flags');
      await page.getByText('1–50 of 10,000 flags').waitFor();
      await screenshot(page, `flags-overview-${suffix}`);
      await page.goto(
        `/projects/web/features/web-flag-00004/strategies/${strategyId}?environment=development`,
      );
      for (const tab of ['General', 'Targeting', 'Variants']) {
        await page.getByRole('tab', { name: tab }).click();
        await page.getByRole('tabpanel', { name: tab }).waitFor();
        await screenshot(page, `strategy-${tab.toLowerCase()}-${suffix}`);
      }
      await page.goto('/events?type=feature-strategy-update&feature=web-flag-00004');
      await page.getByText('parameters.rollout').first().waitFor();
      await screenshot(page, `event-diff-${suffix}`);
      await page.goto('/playground');
      await page.getByLabel('production').check();
      // One project: all four would ask more evaluations than the playground answers at once.
      await page.getByLabel('All projects').uncheck();
      await page.getByLabel('Web', { exact: true }).check();
      await page.getByLabel('appName').fill('web');
      await page.getByLabel('userId').fill('alice');
      await page.getByRole('button', { name: 'Try the context' }).click();
      await page.getByRole('heading', { name: 'Results' }).waitFor();
      await page.getByLabel('Only flags that differ between environments').check();
      await page
        .getByText(/of \d+ results|No result matches/)
        .first()
        .waitFor();
      await screenshot(page, `playground-filters-${suffix}`);
      await page.close();
    });
  }
});
