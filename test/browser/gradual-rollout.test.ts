import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  await flags(ui.server).create('rollout-me');
});
afterAll(() => ui?.close());

describe('a gradual rollout with a constraint', () => {
  it('is added on the flag page and stored as typed', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/rollout-me');
    await page.getByRole('link', { name: 'Add strategy in development' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add strategy in development' }).waitFor();
    expect(await page.getByLabel('Strategy type').inputValue()).toBe('flexibleRollout');
    await page.getByLabel('Rollout (%)').fill('30');
    await page.getByLabel('Stickiness').selectOption('userId');
    await page.getByRole('tab', { name: 'Targeting' }).click();
    await page.getByRole('button', { name: 'Add constraint' }).click();
    const constraint = page.getByRole('group', { name: 'Constraint 1' });
    await constraint.getByLabel('Context field').selectOption('userId');
    await constraint.getByLabel('Operator').selectOption('IN');
    await constraint.getByLabel('Values').fill('alice\nbob');
    await page.getByRole('button', { name: 'Add strategy' }).click();

    const card = page
      .getByRole('list', { name: /Strategies in development/ })
      .getByRole('listitem')
      .first();
    await card.waitFor();
    expect(await card.textContent()).toContain('On for 30% of the audience, by userId stickiness');
    expect(await card.textContent()).toContain('userId is one of alice, bob');

    const stored = await ui.server.request(
      'GET',
      '/api/admin/projects/default/features/rollout-me/environments/development/strategies',
      { token: ui.server.adminToken },
    );
    expect(stored.body).toMatchObject([
      {
        name: 'flexibleRollout',
        parameters: { rollout: '30', stickiness: 'userId', groupId: 'rollout-me' },
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice', 'bob'] }],
      },
    ]);
    await page.close();
  });
});
