import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startUi, type UiHarness } from './ui.js';

// Issue 24's target, measured: the playground answering 10,000 rows (5,000 flags × 2
// environments) is usable within a second of the answer. A review found 13,220 rows rendered in
// one table and the button busy for 21.5 s after a 0.9 s answer.
const FLAGS = 5_000;
const INTERACTIVE_MS = 1_000;

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  const features = Array.from({ length: FLAGS }, (_, i) => ({ name: `tried-${String(i).padStart(4, '0')}` }));
  const imported = await ui.server.request('POST', '/api/admin/state/import', {
    token: ui.server.adminToken,
    body: { version: 1, features },
  });
  expect(imported.status).toBe(202);
}, 120_000);
afterAll(() => ui?.close());

const WATCH = `
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
`;

describe(`the playground with ${(FLAGS * 2).toLocaleString('en')} results`, () => {
  it(`is interactive within ${INTERACTIVE_MS} ms of the answer, a page of rows shown`, async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/playground');
    await page.addInitScript(WATCH);
    await page.reload();
    await page.getByLabel('production').check();
    await page.getByLabel('appName').fill('shop');
    const button = page.getByRole('button', { name: 'Try the context' });
    await button.click();
    await page.getByText('1–50 of 10,000 results').waitFor({ timeout: 60_000 });
    await page.waitForFunction('!document.querySelector("button[aria-busy=true]")');
    const { answeredAt, readyAt, longest } = await page.evaluate<{
      answeredAt: number;
      readyAt: number;
      longest: number;
    }>(`({
      answeredAt: performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/admin/playground/advanced')).responseEnd,
      readyAt: performance.now(),
      longest: Math.max(0, ...window.longTasks),
    })`);
    const rows = await page.locator('tr.result-row').count();
    const elapsed = readyAt - answeredAt;
    console.log(
      `playground, ${FLAGS * 2} results: first page and the button back ${elapsed.toFixed(0)} ms after the answer (at most; measured after); longest task ${longest.toFixed(0)} ms`,
    );
    expect(rows).toBe(50);
    expect(elapsed).toBeLessThan(INTERACTIVE_MS);

    const started = Date.now();
    await page.getByLabel('Find a flag').fill('tried-4999');
    await page.getByText('1–2 of 2 results').waitFor();
    expect(Date.now() - started).toBeLessThan(INTERACTIVE_MS);
    await page.close();
  }, 120_000);
});
