import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  const f = flags(ui.server);
  await f.create('old-banner');
  await f.enable('old-banner', 'development');
});
afterAll(() => ui?.close());

const readFlag = (name: string) =>
  ui.server.request('GET', `/api/admin/projects/default/features/${name}`, { token: ui.server.adminToken });

describe('archiving and reviving a flag', () => {
  it('archives after a confirmation that says what happens, and revives it from the archive', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/old-banner');
    await page.getByRole('button', { name: 'Archive' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive “old-banner”?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('it is on in development now');
    await dialog.getByRole('button', { name: 'Archive flag' }).click();

    const row = page.getByRole('row', { name: /old-banner/ });
    await row.waitFor();
    expect(new URL(page.url()).search).toBe('?archived=1');
    expect(await page.getByLabel('Archived flags').isChecked()).toBe(true);
    expect((await readFlag('old-banner')).status).toBe(404);

    await row.getByRole('button', { name: 'Revive old-banner' }).click();
    await page.getByText('No archived flags in this project.').waitFor();
    const revived = await readFlag('old-banner');
    expect(revived.status).toBe(200);
    expect(revived.body.environments.every((e: { enabled: boolean }) => !e.enabled)).toBe(true);

    await page.getByLabel('Archived flags').uncheck();
    await page.getByRole('row', { name: /old-banner/ }).waitFor();
    await page.close();
  });
});
