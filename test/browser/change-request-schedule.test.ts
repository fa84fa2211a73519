import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, grant } from '../access.js';
import { flags } from '../flags.js';
import { createUser, type TestUser, writeDirectly } from '../server.js';
import { adminApi } from './admin-api.js';
import { DESKTOP, PHONE, SCREENSHOT_ENV, screenshot, signIn, startUi, type UiHarness } from './ui.js';

// Scheduled change requests in the browser: production of the project "shop" takes changes only
// through change requests. Ann asks for changes; Ben approves them, and applies or schedules them.
let ui: UiHarness;
let ann: TestUser;
let ben: TestUser;
let bannerStrategy: Record<string, unknown> & { id: string; parameters: Record<string, string> };
const PROJECT = '/api/admin/projects/shop';

beforeAll(async () => {
  ui = await startUi(SCREENSHOT_ENV);
  const admin = adminApi(ui.server);
  await admin.send('POST', '/api/admin/projects', { id: 'shop', name: 'Shop' });
  const f = flags(ui.server, 'shop');
  await f.create('checkout', { description: 'The one-page checkout' });
  await f.create('banner', { description: 'The summer sale banner' });
  bannerStrategy = await f.addStrategy('banner', 'production', {
    name: 'flexibleRollout',
    title: 'Some shoppers',
    parameters: { rollout: '10', stickiness: 'default', groupId: 'banner' },
  });
  await admin.send('PUT', `${PROJECT}/environments/production/change-requests/config`, {
    changeRequestsEnabled: true,
    requiredApprovals: 1,
  });
  const inProduction = (...names: string[]) => names.map((name) => ({ name, environment: 'production' }));
  const editor = await createRole(ui.server, {
    name: 'Production editor',
    type: 'custom',
    permissions: inProduction('UPDATE_FEATURE_ENVIRONMENT', 'UPDATE_FEATURE_STRATEGY'),
  });
  const reviewer = await createRole(ui.server, {
    name: 'Production reviewer',
    type: 'custom',
    permissions: inProduction('APPROVE_CHANGE_REQUEST', 'APPLY_CHANGE_REQUEST'),
  });
  ann = await createUser(ui.server, 3, 'ann');
  ben = await createUser(ui.server, 3, 'ben');
  await grant(ui.server, 'shop', { roles: [editor], users: [ann.id] });
  await grant(ui.server, 'shop', { roles: [reviewer], users: [ben.id] });
});
afterAll(() => ui?.close());

async function as(user: TestUser, method: string, url: string, body?: unknown) {
  const res = await ui.server.request(method, url, { token: user.pat, body });
  expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

/** A request of Ann's with the change, approved by Ben: ready to be applied or scheduled. */
async function approvedRequest(change: object, title: string): Promise<number> {
  const draft = await as(ann, 'POST', `${PROJECT}/environments/production/change-requests`, change);
  await as(ann, 'PUT', `${PROJECT}/change-requests/${draft.id}/title`, { title });
  await as(ann, 'PUT', `${PROJECT}/change-requests/${draft.id}/state`, { state: 'In review' });
  await as(ben, 'PUT', `${PROJECT}/change-requests/${draft.id}/state`, { state: 'Approved' });
  return draft.id;
}

const readRequest = (id: number) => adminApi(ui.server).get(`${PROJECT}/change-requests/${id}`);
const stateOf = (page: Page) => page.locator('.request-facts .state-badge');
const schedule = (page: Page) => page.getByRole('region', { name: 'Schedule' });

/**
 * The `datetime-local` value and the moment it stands for, `minutes` from now in the browser's own
 * time zone (whatever the machine's is), to the minute as the field takes it.
 */
function inBrowser(page: Page, minutes: number): Promise<{ local: string; iso: string }> {
  return page.evaluate((ahead) => {
    const at = new Date(Date.now() + ahead * 60_000);
    at.setSeconds(0, 0);
    const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    return { local, iso: at.toISOString() };
  }, minutes);
}

describe('scheduled change requests', () => {
  it('are scheduled and rescheduled in the UI, shown with their time, and applied when due', async () => {
    const id = await approvedRequest(
      { feature: 'checkout', action: 'updateEnabled', payload: { enabled: true } },
      'Open the new checkout',
    );
    const page = await ui.newPage();
    await signIn(page, ben.username, ben.password, `/projects/shop/change-requests/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Open the new checkout' }).waitFor();
    await page.getByRole('button', { name: 'Apply changes' }).waitFor();

    // A time that has passed is refused beside the field, before the server is asked.
    await page.getByRole('button', { name: 'Schedule…' }).click();
    const form = page.getByRole('form', { name: 'Schedule the change request' });
    await form.getByLabel('Apply on').fill((await inBrowser(page, -5)).local);
    await form.getByRole('button', { name: 'Schedule', exact: true }).click();
    await form.getByText('Pick a time to come: this one has passed.').waitFor();
    expect((await readRequest(id)).state).toBe('Approved');

    // Two minutes ahead, to the minute: one or two from now.
    const soon = await inBrowser(page, 2);
    await form.getByLabel('Apply on').fill(soon.local);
    await form.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect.poll(() => stateOf(page).textContent()).toBe('Scheduled');
    expect(await schedule(page).locator('time').getAttribute('datetime')).toBe(soon.iso);
    expect(await schedule(page).textContent()).toMatch(/^Applies on .+ — in [12] min$/);
    expect((await readRequest(id)).schedule).toEqual({ status: 'pending', scheduledAt: soon.iso });
    for (const name of ['Apply now', 'Reschedule…', 'Reject']) {
      await page.getByRole('button', { name, exact: true }).waitFor();
    }
    expect(await page.getByRole('button', { name: 'Apply changes' }).count()).toBe(0);
    expect(await page.locator('[role=alert]').count()).toBe(0);

    // The project's list says when.
    await page.getByRole('link', { name: 'Change requests' }).first().click();
    const row = page.getByRole('row', { name: /Open the new checkout/ });
    await row.getByText('Scheduled', { exact: true }).waitFor();
    expect(await row.locator('time').getAttribute('datetime')).toBe(soon.iso);

    // So does the flag's page, with a way to the request.
    await page.goto('/projects/shop/features/checkout');
    const note = page.getByText('Scheduled change requests:');
    await note.waitFor();
    expect(await note.textContent()).toBe(`Scheduled change requests: #${id} (production)`);
    await note.getByRole('link', { name: `#${id}` }).click();
    await page.getByRole('heading', { level: 1, name: 'Open the new checkout' }).waitFor();

    // Rescheduled for tomorrow, it waits for then instead.
    await page.getByRole('button', { name: 'Reschedule…' }).click();
    const again = page.getByRole('form', { name: 'Reschedule the change request' });
    expect(await again.getByLabel('Apply on').inputValue()).toBe(soon.local);
    const tomorrow = await inBrowser(page, 24 * 60);
    await again.getByLabel('Apply on').fill(tomorrow.local);
    await again.getByRole('button', { name: 'Reschedule', exact: true }).click();
    await expect.poll(() => schedule(page).locator('time').getAttribute('datetime')).toBe(tomorrow.iso);
    expect(await schedule(page).textContent()).toMatch(/ — in (23 h 59 min|1 day)$/);
    expect((await readRequest(id)).schedule).toEqual({ status: 'pending', scheduledAt: tomorrow.iso });
    for (const [viewport, suffix] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      await page.setViewportSize(viewport);
      await screenshot(page, `change-request-scheduled-${suffix}`);
    }
    expect(await flags(ui.server, 'shop').isEnabled('checkout', 'production')).toBe(false);

    // Tomorrow is not waited for: the request's job is made due now.
    await writeDirectly(
      ui.server,
      `UPDATE jobs SET run_at = now() WHERE kind = 'change-request' AND state = 'pending'`,
    );
    await expect.poll(async () => (await readRequest(id)).state, { timeout: 20_000 }).toBe('Applied');
    await page.reload();
    await expect.poll(() => stateOf(page).textContent()).toBe('Applied');
    expect(await schedule(page).count()).toBe(0);
    expect(await flags(ui.server, 'shop').isEnabled('checkout', 'production')).toBe(true);

    const read = page.waitForResponse((r) => r.url().includes('/change-requests/scheduled?feature=checkout'));
    await page.goto('/projects/shop/features/checkout');
    expect(await (await read).json()).toEqual([]);
    await page.getByRole('heading', { level: 1, name: 'checkout' }).waitFor();
    expect(await page.getByText('Scheduled change requests:').count()).toBe(0);
    await page.close();
  }, 90_000);

  it('say why a schedule was suspended, and may be applied now', async () => {
    const path = `${PROJECT}/features/banner/environments/production/strategies/${bannerStrategy.id}`;
    const id = await approvedRequest(
      {
        feature: 'banner',
        action: 'updateStrategy',
        payload: { ...bannerStrategy, parameters: { ...bannerStrategy.parameters, rollout: '50' } },
      },
      'Show the banner to half',
    );
    const at = new Date(Date.now() + 3 * 3_600_000).toISOString();
    await as(ben, 'PUT', `${PROJECT}/change-requests/${id}/state`, { state: 'Scheduled', scheduledAt: at });
    // Meanwhile an Admin changes the strategy directly: the schedule would no longer apply what was approved.
    await adminApi(ui.server).send('PUT', path, {
      ...bannerStrategy,
      parameters: { ...bannerStrategy.parameters, rollout: '20' },
    });
    await expect.poll(async () => (await readRequest(id)).schedule?.status).toBe('suspended');

    const page = await ui.newPage();
    await signIn(page, ben.username, ben.password, `/projects/shop/change-requests/${id}`);
    await schedule(page).getByText('Suspended:').waitFor();
    expect(await schedule(page).textContent()).toContain('has changed since it was added');
    await page.getByRole('button', { name: 'Reschedule…' }).waitFor();

    await page.getByRole('link', { name: 'Change requests' }).first().click();
    const row = page.getByRole('row', { name: /Show the banner to half/ });
    await row.getByText('suspended, was for').waitFor();
    await row.getByRole('link', { name: 'Show the banner to half' }).click();

    // Applied now, what changed meanwhile stops it, as it stops any apply of a stale change.
    await page.getByRole('button', { name: 'Apply now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Apply now' }).click();
    await page
      .getByRole('alert')
      .getByText(/cannot be applied/)
      .waitFor();
    expect(await stateOf(page).textContent()).toBe('Scheduled');

    // Rejected, it is closed and its schedule gone.
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => stateOf(page).textContent()).toBe('Rejected');
    expect(await schedule(page).count()).toBe(0);
    expect((await adminApi(ui.server).get(path)).parameters.rollout).toBe('20');
    await page.close();
  });
});
