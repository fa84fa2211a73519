import type { Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { stopSdk } from '../official-sdk.js';
import { startSdk, until } from './sdk.js';
import { signIn, startUi, type UiHarness } from './ui.js';

const clientToken = `default:development.${'6'.repeat(56)}`;
let ui: UiHarness;
let sdk: Unleash;
beforeAll(async () => {
  ui = await startUi({ INIT_CLIENT_API_TOKENS: clientToken });
  await flags(ui.server).create('follow-me');
  sdk = await startSdk(ui.base, clientToken);
});
afterAll(async () => {
  stopSdk(sdk);
  await ui?.close();
});

describe('switching a flag in the list', () => {
  it('turns it on in development at once, and the SDK follows', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default');
    expect(sdk.isEnabled('follow-me')).toBe(false);
    const toggle = page.getByRole('switch', { name: 'follow-me in development' });
    await toggle.click();
    await page.waitForSelector('[role=switch][aria-label="follow-me in development"][aria-checked=true]');
    await until(() => sdk.isEnabled('follow-me'));

    await toggle.click();
    await until(() => !sdk.isEnabled('follow-me'));
    await page.close();
  });

  it('asks before turning it on in production, naming the flag and the environment', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default');
    const toggle = page.getByRole('switch', { name: 'follow-me in production' });
    await toggle.click();
    const dialog = page.getByRole('dialog', { name: 'Turn on “follow-me” in production?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('production');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await flags(ui.server).isEnabled('follow-me', 'production')).toBe(false);

    await toggle.click();
    await dialog.getByRole('button', { name: 'Turn on in production' }).click();
    await page.waitForSelector('[role=switch][aria-label="follow-me in production"][aria-checked=true]');
    expect(await flags(ui.server).isEnabled('follow-me', 'production')).toBe(true);
    await page.close();
  });
});
