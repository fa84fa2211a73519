import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { createUser, type TestUser } from '../server.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
let viewer: TestUser;
beforeAll(async () => {
  ui = await startUi();
  const f = flags(ui.server);
  await f.create('looked-at');
  await f.addStrategy('looked-at', 'development', { name: 'default' });
  await f.enable('looked-at', 'development');
  viewer = await createUser(ui.server, 3);
});
afterAll(() => ui?.close());

describe('a Viewer', () => {
  it('reads the flag list and the flag page without controls that would be refused', async () => {
    const page = await ui.newPage();
    await signIn(page, viewer.username, viewer.password, '/projects/default');
    const row = page.getByRole('row', { name: /looked-at/ });
    await row.waitFor();
    expect(await row.getByRole('switch').count()).toBe(0);
    expect(await row.textContent()).toContain('On');
    expect(await page.getByRole('link', { name: 'New flag' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Access' }).count()).toBe(0);

    await row.getByRole('link', { name: 'looked-at' }).click();
    await page.getByRole('heading', { level: 1, name: 'looked-at' }).waitFor();
    await page.getByRole('list', { name: /Strategies in development/ }).waitFor();
    expect(await page.getByRole('switch').count()).toBe(0);
    for (const name of [/Add strategy/, /^Edit/, /^Delete/, /^Archive/, /stale/, /Add tag/]) {
      expect(await page.getByRole('button', { name }).count()).toBe(0);
      expect(await page.getByRole('link', { name }).count()).toBe(0);
    }
    await page.getByRole('link', { name: 'Variants' }).click();
    await page.getByRole('region', { name: 'Variants' }).waitFor();
    expect(await page.getByRole('button', { name: /Edit variants/ }).count()).toBe(0);

    await page.goto('/projects');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    expect(await page.getByRole('link', { name: 'New project' }).count()).toBe(0);
    await page.close();
  });
});
