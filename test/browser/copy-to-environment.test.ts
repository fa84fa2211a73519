import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  const f = flags(ui.server);
  await f.create('copied');
  await f.addStrategy('copied', 'development', {
    name: 'flexibleRollout',
    title: 'Beta',
    parameters: { rollout: '20', stickiness: 'userId', groupId: 'copied' },
    constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    variants: [{ name: 'small', weight: 1000, weightType: 'variable', stickiness: 'userId' }],
  });
  await f.setVariants('copied', 'development', [
    {
      name: 'blue',
      weight: 700,
      weightType: 'fix',
      stickiness: 'default',
      payload: { type: 'string', value: 'b' },
    },
    { name: 'red', weight: 300, weightType: 'variable', stickiness: 'default' },
  ]);
});
afterAll(() => ui?.close());

const environment = async (name: string) => {
  const flag = await adminApi(ui.server).get('/api/admin/projects/default/features/copied');
  return flag.environments.find((e: { name: string }) => e.name === name);
};

describe('copying to another environment', () => {
  it('copies a strategy, every field of it, to production after asking', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/copied');
    await page
      .getByRole('button', { name: 'Copy to another environment: the strategy “Beta” of development' })
      .click();
    await page.getByRole('button', { name: 'production', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy the strategy “Beta” to production?' });
    await dialog.getByRole('button', { name: 'Copy to production' }).click();
    await page
      .getByRole('list', { name: /Strategies in production/ })
      .getByText('Beta')
      .waitFor();

    const [source] = (await environment('development')).strategies;
    const [copy] = (await environment('production')).strategies;
    const { id: _a, sortOrder: _b, ...expected } = source;
    expect(copy).toMatchObject(expected);
    expect(copy.id).not.toBe(source.id);
    await page.close();
  });

  it('copies the variants, weights and payloads, to another environment', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/copied/variants');
    await page
      .getByRole('button', { name: 'Copy to another environment: the variants of development' })
      .click();
    await page.getByRole('button', { name: 'production', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Copy to production' }).click();
    await page.getByRole('table', { name: 'Variants in production' }).getByText('blue').waitFor();
    expect((await environment('production')).variants).toEqual((await environment('development')).variants);
    await page.close();
  });
});
