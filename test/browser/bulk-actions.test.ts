import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  await adminApi(ui.server).send('POST', '/api/admin/projects', { id: 'mobile', name: 'Mobile' });
  await adminApi(ui.server).send('POST', '/api/admin/tag-types', { name: 'team' });
  await flags(ui.server).create('bulk-a');
  await flags(ui.server).create('bulk-b');
  await flags(ui.server, 'mobile').create('bulk-m');
});
afterAll(() => ui?.close());

const read = (project: string, name: string) =>
  adminApi(ui.server).get(`/api/admin/projects/${project}/features/${name}`);
const enabledIn = async (project: string, name: string, environment: string) =>
  (await read(project, name)).environments.find((e: { name: string }) => e.name === environment).enabled;

describe('bulk actions on the flag list', () => {
  it('switches, tags and archives the selected flags of several projects at once', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/flags');
    await page.getByText('1–3 of 3 flags').waitFor();
    await page.getByLabel('Select bulk-a').check();
    await page.getByLabel('Select bulk-m').check();
    const bar = page.getByRole('region', { name: 'Selected flags' });
    expect(await bar.getByRole('status').textContent()).toBe('2 flags selected');

    await bar.getByLabel('Environment').selectOption('development');
    await bar.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Turned on 2 flags in development.').waitFor();
    expect(await enabledIn('default', 'bulk-a', 'development')).toBe(true);
    expect(await enabledIn('mobile', 'bulk-m', 'development')).toBe(true);
    expect(await enabledIn('default', 'bulk-b', 'development')).toBe(false);
    // Done, the selection is cleared.
    expect(await bar.count()).toBe(0);

    await page.getByLabel('Select bulk-b').check();
    await page.getByLabel('Select bulk-m').check();
    await bar.getByLabel('Tag type').selectOption('team');
    await bar.getByLabel('Tag value').fill('growth');
    await bar.getByRole('button', { name: 'Add tag' }).click();
    await page.getByText('Tagged 2 flags with team:growth.').waitFor();
    expect((await read('default', 'bulk-b')).tags ?? []).toEqual([]);
    const tagsOf = (name: string) => adminApi(ui.server).get(`/api/admin/features/${name}/tags`);
    expect((await tagsOf('bulk-b')).tags).toEqual([{ type: 'team', value: 'growth' }]);
    expect((await tagsOf('bulk-m')).tags).toEqual([{ type: 'team', value: 'growth' }]);
    expect((await tagsOf('bulk-a')).tags).toEqual([]);

    await page.getByLabel('Select every flag of this page').check();
    await bar.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive 3 flags' }).click();
    await page.getByText('No flags yet.').waitFor();
    const archived = await adminApi(ui.server).get('/api/admin/search/features?archived=IS:true');
    expect(archived.total).toBe(3);
    await page.close();
  });
});
