import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { createUser } from '../server.js';
import { adminApi } from './admin-api.js';
import { until } from './sdk.js';
import {
  PHONE,
  SCREENSHOT_ENV,
  SCREENSHOT_PASSWORD,
  screenshot,
  signIn,
  startUi,
  type UiHarness,
} from './ui.js';

const clientToken = `default:production.${'5'.repeat(56)}`;
const FLAG_CHARTS = '/api/admin/projects/default/features/checkout/impact-metrics/config';

// What an SDK sends with its usage metrics once its application defined and counted them.
const REPORT = {
  appName: 'shop',
  environment: 'production',
  impactMetrics: [
    {
      name: 'checkout_errors',
      help: 'Failed checkouts',
      type: 'counter',
      samples: [{ labels: { appName: 'shop', environment: 'production' }, value: 7 }],
    },
    {
      name: 'cart_value',
      help: 'Cart value',
      type: 'gauge',
      samples: [{ labels: { appName: 'shop' }, value: 42 }],
    },
  ],
};

let ui: UiHarness;
let admin: ReturnType<typeof adminApi>;
beforeAll(async () => {
  ui = await startUi({ ...SCREENSHOT_ENV, INIT_CLIENT_API_TOKENS: clientToken });
  admin = adminApi(ui.server);
  await flags(ui.server).create('checkout', { description: 'The new checkout' });
});
afterAll(() => ui?.close());

/** Sends the report as the SDK would, and waits until the server has written it (it batches writes). */
async function send(): Promise<void> {
  const res = await ui.server.request('POST', '/api/client/metrics', { token: clientToken, body: REPORT });
  expect(res.status, res.text).toBeLessThan(300);
  await until(async () => {
    // A 404 until the first write has made the metric.
    const answer = await ui.server.request(
      'GET',
      '/api/admin/impact-metrics/?metricName=checkout_errors&range=hour',
      {
        token: ui.server.adminToken,
      },
    );
    return (
      answer.status === 200 && answer.body.series.some((s: any) => s.data.some(([, v]: any) => v === '7'))
    );
  }, 15_000);
}
let sent: Promise<void> | undefined;
// Once: a second report would add to the counter's minute.
const report = () => {
  sent ??= send();
  return sent;
};

/** A chart's card: the region its title names. */
const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

async function deleteChart(page: Page, title: string) {
  await page.getByRole('button', { name: `Delete ${title}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete chart' }).click();
  await card(page, title).waitFor({ state: 'detached' });
}

describe('impact metrics', () => {
  it('explains how SDKs send them before any has', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', SCREENSHOT_PASSWORD, '/impact-metrics');
    await page.getByRole('heading', { level: 1, name: 'Impact metrics' }).waitFor();
    const help = page.getByRole('region', { name: 'No impact metrics yet' });
    expect(await help.textContent()).toContain("unleash.impactMetrics.defineCounter('checkout_errors'");
    expect(await help.textContent()).toContain('incrementCounter');
    expect(await page.getByRole('button', { name: 'Add chart' }).count()).toBe(0);
    await screenshot(page, 'impact-metrics-empty');
    await page.close();
  });

  it('charts a counter the SDK sent, saved across reloads, then deleted', async () => {
    await report();
    const page = await ui.newPage();
    await signIn(page, 'admin', SCREENSHOT_PASSWORD, '/projects');
    // An Admin finds the page in the Admin menu.
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.getByRole('link', { name: 'Impact metrics' }).click();
    await page.getByText('There are no charts yet').waitFor();

    await page.getByRole('button', { name: 'Add chart' }).click();
    const form = page.getByRole('form', { name: 'New chart' });
    await form.getByLabel('Metric').selectOption('checkout_errors');
    expect(await form.getByLabel('Aggregation').locator('option').allTextContents()).toEqual([
      'Count per interval',
      'Rate per second',
    ]);
    await form.getByLabel('Aggregation').selectOption('count');
    await form.getByLabel('Time range').selectOption('hour');
    await form.getByLabel('Title').fill('Checkout errors');
    // The label filters come from the metric's series, as the preview's query answered them.
    await form.getByRole('group', { name: 'appName' }).getByLabel('shop').check();
    const preview = form.getByRole('region', { name: 'Preview' });
    await preview.locator('canvas').first().waitFor();
    await expect.poll(() => preview.locator('.impact-legend').textContent()).toContain('appName=shop');
    expect(await preview.locator('.impact-legend').textContent()).toContain('highest 7');
    await screenshot(page, 'impact-metrics-form');
    await form.getByRole('button', { name: 'Add chart' }).click();

    const chart = card(page, 'Checkout errors');
    await chart.locator('canvas').first().waitFor();
    await expect.poll(() => chart.locator('.impact-legend').textContent()).toContain('highest 7');
    expect(await chart.textContent()).toContain('appName=shop');
    const { configs } = await admin.get('/api/admin/impact-metrics/config');
    expect(configs).toMatchObject([
      {
        metricName: 'checkout_errors',
        aggregationMode: 'count',
        timeRange: 'hour',
        labelSelectors: { appName: ['shop'] },
        title: 'Checkout errors',
        mode: 'write',
      },
    ]);
    await screenshot(page, 'impact-metrics-desktop');

    await page.reload();
    await card(page, 'Checkout errors').locator('canvas').first().waitFor();

    // A change keeps the chart (same id), with its new title.
    await page.getByRole('button', { name: 'Edit Checkout errors' }).click();
    const edit = page.getByRole('form', { name: 'Edit chart' });
    await edit.getByLabel('Title').fill('Failed checkouts');
    await edit.getByLabel('Y axis').selectOption('zero');
    await edit.getByRole('button', { name: 'Save chart' }).click();
    await card(page, 'Failed checkouts').locator('canvas').first().waitFor();
    const changed = await admin.get('/api/admin/impact-metrics/config');
    expect(changed.configs).toMatchObject([
      { id: configs[0].id, title: 'Failed checkouts', yAxisMin: 'zero' },
    ]);

    await deleteChart(page, 'Failed checkouts');
    expect((await admin.get('/api/admin/impact-metrics/config')).configs).toEqual([]);
    await page.close();
  });

  it("keeps a flag's own charts on its Impact metrics tab", async () => {
    await report();
    for (const [viewport, suffix] of [
      [undefined, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await ui.newPage(viewport);
      await signIn(page, 'admin', SCREENSHOT_PASSWORD, '/projects/default/features/checkout');
      await page
        .getByRole('navigation', { name: 'Parts of the flag' })
        .getByRole('link', { name: 'Impact metrics' })
        .click();
      await page.getByText('This flag has no charts yet').waitFor();
      await page.getByRole('button', { name: 'Add chart' }).click();
      const form = page.getByRole('form', { name: 'New chart' });
      await form.getByLabel('Metric').selectOption('cart_value');
      expect(await form.getByLabel('Aggregation').inputValue()).toBe('avg');
      await form.getByLabel('Y axis').selectOption('zero');
      await form.getByRole('button', { name: 'Add chart' }).click();

      const chart = page.getByRole('listitem').filter({ has: page.locator('.impact-card') });
      await chart.locator('canvas').first().waitFor();
      await expect.poll(() => chart.locator('.impact-legend').textContent()).toContain('highest 42');
      const { configs } = await admin.get(FLAG_CHARTS);
      expect(configs).toMatchObject([{ metricName: 'cart_value', aggregationMode: 'avg', yAxisMin: 'zero' }]);
      // The instance's charts are apart from the flag's.
      expect((await admin.get('/api/admin/impact-metrics/config')).configs).toEqual([]);
      await screenshot(page, `impact-metrics-flag-${suffix}`);

      await page.reload();
      const title = await chart.getByRole('heading', { level: 2 }).textContent();
      await deleteChart(page, title!);
      expect((await admin.get(FLAG_CHARTS)).configs).toEqual([]);
      await page.close();
    }
  });

  it('shows a Viewer the charts without a way to change them', async () => {
    await report();
    const saved = await admin.send('POST', FLAG_CHARTS, {
      metricName: 'checkout_errors',
      timeRange: 'day',
      aggregationMode: 'rps',
      labelSelectors: { environment: ['*'] },
      title: 'Errors per second',
    });
    const viewer = await createUser(ui.server, 3);
    const page = await ui.newPage();
    await signIn(
      page,
      viewer.username,
      viewer.password,
      '/projects/default/features/checkout/impact-metrics',
    );
    const chart = card(page, 'Errors per second');
    await chart.locator('canvas').first().waitFor();
    // "*": a line per value of the label, named by it.
    expect(await chart.locator('.impact-legend').textContent()).toContain('environment=production');
    expect(await chart.textContent()).toContain('each environment');
    expect(await page.getByRole('button', { name: /Add chart|Edit|Delete/ }).count()).toBe(0);
    await page.close();
    await admin.send('DELETE', `${FLAG_CHARTS}/${saved.id}`);
  });
});
