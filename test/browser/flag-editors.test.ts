import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

// The editors of a flag: each is opened on an object made through the API with every field set,
// one visible field is changed and saved, and the object read back must differ by that field only.
// A PUT replaces the whole object, so what a form does not show must go back as it came.
let ui: UiHarness;
let page: Page;
let api: ReturnType<typeof adminApi>;
beforeAll(async () => {
  ui = await startUi();
  api = adminApi(ui.server);
  page = await ui.newPage();
  await signIn(page);
});
afterAll(() => ui?.close());

const FEATURES = '/api/admin/projects/default/features';
const strategiesOf = (flag: string, environment = 'development') =>
  `${FEATURES}/${flag}/environments/${environment}/strategies`;

describe('the strategy editor', () => {
  it('keeps what it does not show: variants, segments, every constraint field, other parameters, the title, the position', async () => {
    const f = flags(ui.server);
    await f.create('kept-rollout');
    await f.addStrategy('kept-rollout', 'development', { name: 'default' });
    const segment = await f.createSegment({ name: 'beta', constraints: [] });
    const made = await f.addStrategy('kept-rollout', 'development', {
      name: 'flexibleRollout',
      title: 'Half of them',
      disabled: false,
      parameters: { rollout: '50', stickiness: 'userId', groupId: 'kept-group', tier: 'gold' },
      constraints: [
        // Ignore case is not shown for IN, nor `value` for a list operator, nor `values` for a single one.
        { contextName: 'userId', operator: 'IN', values: ['alice'], value: 'bob', caseInsensitive: true },
        { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], inverted: true },
        { contextName: 'appName', operator: 'SEMVER_GTE', value: '1.2.3', values: ['old'] },
        { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2030-01-01T00:00:00Z' },
      ],
      segments: [segment.id],
      variants: [
        {
          name: 'blue',
          weight: 300,
          weightType: 'fix',
          stickiness: 'userId',
          payload: { type: 'json', value: '{"shade":"navy"}' },
        },
        { name: 'red', weight: 0, weightType: 'variable', stickiness: 'default' },
      ],
      sortOrder: 7,
    });
    const before = await api.get(`${strategiesOf('kept-rollout')}/${made.id}`);

    await page.goto(`/projects/default/features/kept-rollout/strategies/${made.id}?environment=development`);
    await page.getByLabel('Rollout (%)').fill('60');
    await page.getByRole('button', { name: 'Save strategy' }).click();
    await page.waitForURL('**/projects/default/features/kept-rollout');

    const after = await api.get(`${strategiesOf('kept-rollout')}/${made.id}`);
    expect(after).toEqual({ ...before, parameters: { ...before.parameters, rollout: '60' } });
  });

  it('clears a title when its field is emptied', async () => {
    const f = flags(ui.server);
    await f.create('titled-rollout');
    const made = await f.addStrategy('titled-rollout', 'development', {
      name: 'flexibleRollout',
      title: 'Named',
      parameters: { rollout: '50', stickiness: 'default', groupId: 'titled-rollout' },
    });
    const before = await api.get(`${strategiesOf('titled-rollout')}/${made.id}`);

    await page.goto(
      `/projects/default/features/titled-rollout/strategies/${made.id}?environment=development`,
    );
    await page.getByLabel('Title (optional)').fill('');
    await page.getByRole('button', { name: 'Save strategy' }).click();
    await page.waitForURL('**/projects/default/features/titled-rollout');

    const after = await api.get(`${strategiesOf('titled-rollout')}/${made.id}`);
    expect(after).toEqual({ ...before, title: '' });
  });

  it('offers each stickiness once', async () => {
    await flags(ui.server).create('sticky-choices');
    await page.goto('/projects/default/features/sticky-choices/strategies/new?environment=development');
    const stickiness = page.getByLabel('Stickiness');
    await stickiness.waitFor();
    const choices = await stickiness.locator('option').allTextContents();
    expect(choices).toEqual(expect.arrayContaining(['default', 'random', 'userId', 'sessionId']));
    expect(new Set(choices).size).toBe(choices.length);
  });
});

describe('the variants editor', () => {
  it('keeps the overrides, payloads and fixed weights of variants when one is renamed', async () => {
    const f = flags(ui.server);
    await f.create('kept-variants');
    await f.setVariants('kept-variants', 'development', [
      {
        name: 'blue',
        weight: 300,
        weightType: 'fix',
        stickiness: 'userId',
        payload: { type: 'json', value: '{"shade":"navy"}' },
        overrides: [{ contextName: 'userId', values: ['alice', 'bob'] }],
      },
      {
        name: 'red',
        weight: 0,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'string', value: 'crimson' },
        overrides: [{ contextName: 'appName', values: ['shop'] }],
      },
    ]);
    const variantsIn = async () =>
      (await api.get(`${FEATURES}/kept-variants`)).environments.find(
        (e: { name: string }) => e.name === 'development',
      ).variants;
    const before = await variantsIn();

    await page.goto('/projects/default/features/kept-variants/variants');
    await page.getByRole('button', { name: 'Edit variants in development' }).click();
    await page.getByRole('group', { name: 'Variant 1' }).getByLabel('Name', { exact: true }).fill('navy');
    await page.getByRole('button', { name: 'Save variants' }).click();
    await page.getByRole('button', { name: 'Edit variants in development' }).waitFor();

    expect(await variantsIn()).toEqual([{ ...before[0], name: 'navy' }, before[1]]);
  });
});

describe('the dependency editor', () => {
  it('keeps the parent and its condition when a variant is added', async () => {
    const f = flags(ui.server);
    await f.create('parent-flag');
    await f.setVariants('parent-flag', 'development', [
      { name: 'blue', weight: 0, weightType: 'variable', stickiness: 'default' },
      { name: 'green', weight: 0, weightType: 'variable', stickiness: 'default' },
    ]);
    await f.create('child-flag');
    await f.addDependency('child-flag', { feature: 'parent-flag', enabled: true, variants: ['blue'] });

    await page.goto('/projects/default/features/child-flag');
    await page.getByRole('button', { name: 'Change', exact: true }).click();
    await page.getByLabel('green').check();
    await page.getByRole('button', { name: 'Save dependency' }).click();
    await page.getByText('being on with the variant blue or green').waitFor();

    const child = await api.get(`${FEATURES}/child-flag`);
    expect(child.dependencies).toEqual([
      { feature: 'parent-flag', enabled: true, variants: ['blue', 'green'] },
    ]);
  });
});
