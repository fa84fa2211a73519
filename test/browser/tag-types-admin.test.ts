import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  await adminApi(ui.server).send('POST', '/api/admin/tag-types', {
    name: 'owner',
    description: 'Who',
    icon: 'person',
  });
  await flags(ui.server).create('carried');
  await flags(ui.server).tag('carried', 'owner', 'payments');
});
afterAll(() => ui?.close());

const tagType = (name: string) =>
  ui.server.request('GET', `/api/admin/tag-types/${name}`, { token: ui.server.adminToken });

describe('the tag types screen', () => {
  it('creates a tag type, changes a description keeping the icon, and deletes one', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/admin/tag-types');
    const form = page.getByRole('form', { name: 'New tag type' });
    await form.getByLabel('Name').fill('team');
    await form.getByLabel('Description').fill('The team that owns it');
    await form.getByRole('button', { name: 'Create tag type' }).click();
    await page.getByRole('heading', { level: 2, name: 'team' }).waitFor();
    expect((await tagType('team')).body.tagType).toMatchObject({
      name: 'team',
      description: 'The team that owns it',
    });

    await page.getByRole('button', { name: 'Edit owner' }).click();
    await page
      .getByRole('form', { name: 'Description of owner' })
      .getByLabel('Description')
      .fill('Who answers for it');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Who answers for it').waitFor();
    expect((await tagType('owner')).body.tagType).toEqual({
      name: 'owner',
      description: 'Who answers for it',
      icon: 'person',
    });

    await page.getByRole('button', { name: 'Delete team' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete tag type' }).click();
    await page.getByRole('heading', { level: 2, name: 'team' }).waitFor({ state: 'detached' });
    expect((await tagType('team')).status).toBe(404);
    await page.close();
  });
});
