import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, grant } from '../access.js';
import { flags } from '../flags.js';
import { createUser, type TestUser } from '../server.js';
import { adminApi } from './admin-api.js';
import { DESKTOP, PHONE, SCREENSHOT_ENV, screenshot, signIn, startUi, type UiHarness } from './ui.js';

// Four eyes in the browser: production of the project "shop" takes changes only through change
// requests. Ann edits flags there (and may approve others' requests); Ben approves and applies.
let ui: UiHarness;
let ann: TestUser;
let ben: TestUser;
let strategyId: string;
const FLAG = '/api/admin/projects/shop/features/checkout';

beforeAll(async () => {
  ui = await startUi(SCREENSHOT_ENV);
  const admin = adminApi(ui.server);
  await admin.send('POST', '/api/admin/projects', { id: 'shop', name: 'Shop' });
  const f = flags(ui.server, 'shop');
  await f.create('checkout', { description: 'The one-page checkout' });
  const made = await f.addStrategy('checkout', 'production', {
    name: 'flexibleRollout',
    title: 'Beta customers',
    parameters: { rollout: '25', stickiness: 'default', groupId: 'checkout' },
  });
  strategyId = made.id;
  await admin.send('PUT', '/api/admin/projects/shop/environments/production/change-requests/config', {
    changeRequestsEnabled: true,
    requiredApprovals: 1,
  });
  const inProduction = (...names: string[]) => names.map((name) => ({ name, environment: 'production' }));
  const editor = await createRole(ui.server, {
    name: 'Production editor',
    type: 'custom',
    permissions: inProduction(
      'UPDATE_FEATURE_ENVIRONMENT',
      'CREATE_FEATURE_STRATEGY',
      'UPDATE_FEATURE_STRATEGY',
      'DELETE_FEATURE_STRATEGY',
      'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
      // So that what stops Ann approving her own request is that it is hers, not a missing right.
      'APPROVE_CHANGE_REQUEST',
    ),
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

const banner = (page: Page) => page.getByRole('region', { name: 'Your change requests' });
const stateOf = (page: Page) => page.locator('.request-facts .state-badge');

describe('change requests', () => {
  it('take a flag’s changes in production to a draft its author submits, and another approves and applies', async () => {
    const page = await ui.newPage();
    await signIn(page, ann.username, ann.password, '/projects/shop/features/checkout');

    // A strategy edited in production goes to Ann's draft, not to the flag.
    await page.getByRole('link', { name: 'Edit Beta customers in production' }).click();
    await page.getByText('production takes changes through change requests').waitFor();
    await page.getByLabel('Rollout (%)').fill('50');
    await page.getByRole('button', { name: 'Add to draft' }).click();
    await page.waitForURL('**/projects/shop/features/checkout');
    await banner(page).getByText('You have a draft change request for production with 1 change.').waitFor();

    // So does switching the flag on there.
    await page.getByRole('switch', { name: 'checkout in production' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add to draft' }).click();
    await banner(page).getByText('with 2 changes').waitFor();
    expect(await flags(ui.server, 'shop').isEnabled('checkout', 'production')).toBe(false);
    expect(
      await adminApi(ui.server).get(`${FLAG}/environments/production/strategies/${strategyId}`),
    ).toMatchObject({ parameters: { rollout: '25' } });

    await banner(page).getByRole('link', { name: 'Review and submit' }).click();
    await page.getByRole('heading', { level: 1, name: /^Change request #\d+$/ }).waitFor();
    const id = Number(page.url().split('/').pop());
    expect(await stateOf(page).textContent()).toBe('Draft');
    const changes = page.getByRole('region', { name: 'Changes of checkout' });
    await changes.getByText('Turn the flag on in production').waitFor();
    await changes.getByText('Change the strategy “Beta customers”').waitFor();
    const rollout = changes.getByRole('row', { name: /parameters\.rollout/ });
    expect(await rollout.getByRole('deletion').textContent()).toBe('25');
    expect(await rollout.getByRole('insertion').textContent()).toBe('50');

    await page.getByRole('button', { name: 'Add a title' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Launch the new checkout');
    await page.getByRole('button', { name: 'Save title' }).click();
    await page.getByRole('heading', { level: 1, name: 'Launch the new checkout' }).waitFor();

    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect.poll(() => stateOf(page).textContent()).toBe('In review');
    await page.getByRole('textbox', { name: 'Comment' }).fill('Ready to go live on Monday.');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.getByText('Ready to go live on Monday.').waitFor();

    // Ann may approve requests in production, but not her own: the page offers no Approve, and the API refuses it.
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    const own = await ui.server.request('PUT', `/api/admin/projects/shop/change-requests/${id}/state`, {
      token: ann.pat,
      body: { state: 'Approved' },
    });
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/author/);
    await page.close();

    // Ben finds it from the project, approves it and applies it.
    const review = await ui.newPage();
    await signIn(review, ben.username, ben.password, '/projects/shop');
    await review.getByRole('link', { name: 'Change requests' }).click();
    await review.getByRole('heading', { level: 1, name: 'Change requests' }).waitFor();
    const row = review.getByRole('row', { name: /Launch the new checkout/ });
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'production',
      'In review',
      'ann',
      'checkout',
      expect.any(String),
    ]);
    await row.getByRole('link', { name: 'Launch the new checkout' }).click();
    await review.getByRole('heading', { level: 1, name: 'Launch the new checkout' }).waitFor();
    await review.getByText('0 of 1').waitFor();
    expect(await review.getByRole('button', { name: 'Apply changes' }).count()).toBe(0);
    for (const [viewport, suffix] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      await review.setViewportSize(viewport);
      await screenshot(review, `change-request-${suffix}`);
    }

    await review.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => stateOf(review).textContent()).toBe('Approved');
    await review.getByText('Approved by ben').waitFor();
    await review.getByRole('button', { name: 'Apply changes' }).click();
    await review.getByRole('dialog').getByRole('button', { name: 'Apply changes' }).click();
    await expect.poll(() => stateOf(review).textContent()).toBe('Applied');
    expect(await review.locator('[role=alert]').count()).toBe(0);

    expect(await flags(ui.server, 'shop').isEnabled('checkout', 'production')).toBe(true);
    expect(
      await adminApi(ui.server).get(`${FLAG}/environments/production/strategies/${strategyId}`),
    ).toMatchObject({ parameters: { rollout: '50' } });
    await review.close();
  });

  it('take variants saved in production to a draft, which its author discards', async () => {
    const page = await ui.newPage();
    await signIn(page, ann.username, ann.password, '/projects/shop/features/checkout/variants');
    await page.getByRole('button', { name: 'Edit variants in production' }).click();
    await page.getByRole('button', { name: 'Add variant' }).click();
    await page.getByRole('group', { name: 'Variant 1' }).getByLabel('Name', { exact: true }).fill('blue');
    await page.getByRole('button', { name: 'Add to draft' }).click();
    await banner(page).getByText('You have a draft change request for production with 1 change.').waitFor();

    await banner(page).getByRole('link', { name: 'Review and submit' }).click();
    await page.getByText('Set the variants in production').waitFor();
    await page.getByRole('row', { name: /blue/ }).waitFor();
    await page.getByRole('button', { name: 'Discard draft' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'Change requests' }).waitFor();

    const flag = await adminApi(ui.server).get(FLAG);
    expect(flag.environments.find((e: { name: string }) => e.name === 'production').variants).toEqual([]);
    const pending = await ui.server.request('GET', '/api/admin/projects/shop/change-requests/pending', {
      token: ann.pat,
    });
    expect(pending.body.map((r: { state: string }) => r.state)).not.toContain('Draft');
    await page.close();
  });

  it('show a change whose target changed since as a conflict, and say why it cannot be applied', async () => {
    const path = `${FLAG}/environments/production/strategies/${strategyId}`;
    const strategy = await adminApi(ui.server).get(path);
    const asAnn = (method: string, url: string, body: unknown) =>
      ui.server.request(method, url, { token: ann.pat, body });
    const draft = await asAnn('POST', '/api/admin/projects/shop/environments/production/change-requests', {
      feature: 'checkout',
      action: 'updateStrategy',
      payload: { ...strategy, parameters: { ...strategy.parameters, rollout: '75' } },
    });
    expect(draft.status, draft.text).toBe(200);
    const id = draft.body.id;
    await asAnn('PUT', `/api/admin/projects/shop/change-requests/${id}/state`, { state: 'In review' });
    // Meanwhile an Admin changes the strategy directly: what was reviewed is no longer what is there.
    await adminApi(ui.server).send('PUT', path, {
      ...strategy,
      parameters: { ...strategy.parameters, rollout: '60' },
    });

    const page = await ui.newPage();
    await signIn(page, ben.username, ben.password, `/projects/shop/change-requests/${id}`);
    await page
      .locator('.change-conflict')
      .getByText(/has changed since it was added/)
      .waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => stateOf(page).textContent()).toBe('Approved');
    await page.getByRole('button', { name: 'Apply changes' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Apply changes' }).click();
    await page
      .getByRole('alert')
      .getByText(/cannot be applied/)
      .waitFor();
    expect(await stateOf(page).textContent()).toBe('Approved');
    expect((await adminApi(ui.server).get(path)).parameters.rollout).toBe('60');
    await page.close();
  });
});
