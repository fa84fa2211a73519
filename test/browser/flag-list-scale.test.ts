import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, signIn, startUi, type UiHarness } from './ui.js';

// Issue 24's targets, measured (not timed tests: the numbers are printed, the bounds are generous
// enough for a busy machine): 10,000 flags in a project, and 300 more in another.
const FLAGS = 10_000;
const FIRST_ROW_MS = 1_000;
const PAGE_BYTES = 100_000;
const KEYSTROKE_MS = 50;
const SEARCH = '/api/admin/search/features';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  const name = (i: number) => `flag-${String(i).padStart(5, '0')}`;
  const features = [
    ...Array.from({ length: FLAGS }, (_, i) => ({
      name: name(i),
      description: i % 10 === 0 ? 'Tenth of them' : null,
    })),
    ...Array.from({ length: 300 }, (_, i) => ({ name: `mobile-${i}`, project: 'mobile' })),
  ];
  const imported = await ui.server.request('POST', '/api/admin/state/import', {
    token: ui.server.adminToken,
    body: { version: 1, projects: [{ id: 'mobile', name: 'Mobile' }], features },
  });
  expect(imported.status).toBe(202);
}, 120_000);
afterAll(() => ui?.close());

// Runs in the page before its scripts: notes when the first row of the flag table is there, and
// every task that kept the main thread for more than 50 ms.
const WATCH = `
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((_, observer) => {
    if (document.querySelector('.flag-table tbody tr')) {
      window.firstRowAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

interface Loaded {
  firstRowAt: number;
  /** The search answers' sizes, as JSON. */
  pages: number[];
}

async function open(page: Page, path: string): Promise<Loaded> {
  await page.goto(path);
  await page.locator('.flag-table tbody tr').first().waitFor();
  return page.evaluate<Loaded>(`({
    firstRowAt: window.firstRowAt,
    pages: performance.getEntriesByType('resource')
      .filter((e) => e.name.includes('${SEARCH}'))
      .map((e) => e.decodedBodySize),
  })`);
}

/**
 * Opens `path` twice and keeps the faster load: on this shared two-core machine one load now and
 * then waits on something not the page's (a collection, a background job, the browser itself); a
 * page slow every time still fails.
 */
async function openTwice(page: Page, path: string): Promise<Loaded> {
  const first = await open(page, path);
  const second = await open(page, path);
  return second.firstRowAt < first.firstRowAt ? second : first;
}

/** Types `text` key by key, as a person would, counting long tasks from the first key. */
async function typeIn(page: Page, label: string, text: string): Promise<void> {
  await page.evaluate('window.longTasks = []');
  await page.getByLabel(label).pressSequentially(text, { delay: 40 });
}

const longestTask = (page: Page) => page.evaluate<number>('Math.max(0, ...window.longTasks)');

describe(`${FLAGS.toLocaleString('en')} flags in a project`, () => {
  it(`shows the first row within ${FIRST_ROW_MS} ms, a page of at most 100 kB; typing a search never blocks`, async () => {
    const page = await ui.newPage();
    await signIn(page);
    await page.addInitScript(WATCH);
    const { firstRowAt, pages } = await openTwice(page, '/projects/default');
    expect(await page.locator('.flag-table tbody tr').count()).toBe(50);
    expect(await page.locator('.pager [role=status]').textContent()).toBe('1–50 of 10,000 flags');

    await typeIn(page, 'Search', 'flag-09990');
    await page.waitForSelector('.pager [role=status]:text-is("1–1 of 1 flags")');
    // Every key, and the list shown for the search when typing paused.
    const longest = await longestTask(page);
    // The URL follows the search once typing pauses, not at every key.
    expect(new URL(page.url()).search).toBe('?search=flag-09990');
    console.log(
      `project of ${FLAGS} flags: first row ${firstRowAt.toFixed(0)} ms after navigation; page ${(pages[0]! / 1e3).toFixed(1)} kB; longest task while typing ${longest.toFixed(0)} ms`,
    );
    expect(firstRowAt).toBeLessThan(FIRST_ROW_MS);
    // One page of the search API, not the whole project.
    expect(pages.length).toBeGreaterThan(0);
    expect(Math.max(...pages)).toBeLessThan(PAGE_BYTES);
    expect(longest).toBeLessThan(KEYSTROKE_MS);

    await page.getByLabel('Search').fill('tenth');
    await page.getByText('1–50 of 1,000 flags').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('51–100 of 1,000 flags').waitFor();
    expect(new URL(page.url()).search).toBe('?search=tenth&page=2');
    await page.close();
  });

  it('lists every project’s flags in the overview, sorted by any column, the URL keeping it', async () => {
    const page = await ui.newPage();
    await signIn(page);
    await page.addInitScript(WATCH);
    const { firstRowAt, pages } = await openTwice(page, '/flags');
    expect(await page.locator('.pager [role=status]').textContent()).toBe('1–50 of 10,300 flags');
    console.log(
      `overview of ${FLAGS + 300} flags: first row ${firstRowAt.toFixed(0)} ms after navigation; page ${(pages[0]! / 1e3).toFixed(1)} kB`,
    );
    expect(firstRowAt).toBeLessThan(FIRST_ROW_MS);
    expect(Math.max(...pages)).toBeLessThan(PAGE_BYTES);

    await page.getByRole('button', { name: /^Flag/ }).click();
    await page.getByRole('button', { name: /^Flag/ }).click();
    await page.locator('.flag-table tbody tr').first().getByText('mobile-99', { exact: true }).waitFor();
    expect(new URL(page.url()).search).toBe('?sort=name&order=desc');
    expect(await page.getByRole('columnheader', { name: /^Flag/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    await page.getByLabel('Project').selectOption('default');
    await page.locator('.flag-table tbody tr').first().getByText('flag-09999', { exact: true }).waitFor();
    expect(new URL(page.url()).search).toBe('?project=default&sort=name&order=desc');
    await page.close();
  });

  it('sorts on a phone too, where the list has no column headings', async () => {
    const page = await ui.newPage(PHONE);
    await signIn(page, 'admin', 'unleash4all', '/flags?project=mobile');
    await page.getByText('1–50 of 300 flags').waitFor();
    await page.getByLabel('Sort by').selectOption({ label: 'Name, descending' });
    await page.locator('.flag-table tbody tr').first().getByText('mobile-99', { exact: true }).waitFor();
    expect(new URL(page.url()).search).toBe('?project=mobile&sort=name&order=desc');
    await page.close();
  });
});
