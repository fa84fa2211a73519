import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { isUiBuilt } from '../../src/web/assets.js';
import { startTestServer, type TestServer } from '../server.js';
import { launchChromium } from './chromium.js';

/**
 * The admin's password for screenshots: not the well-known default, with which every page would
 * wear the reminder to change it. Pass `SCREENSHOT_ENV` to `startUi`.
 */
export const SCREENSHOT_PASSWORD = 'Shown-In-Screenshots-1';
export const SCREENSHOT_ENV = { UNLEASH_DEFAULT_ADMIN_PASSWORD: SCREENSHOT_PASSWORD };

/** The widths the UI is made for: a laptop and a phone. */
export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };

const SCREENSHOTS = fileURLToPath(new URL('../../ui/screenshots/', import.meta.url));

export interface UiHarness {
  server: TestServer;
  browser: Browser;
  /** http://127.0.0.1:<port> */
  base: string;
  /** A page of a fresh browser context (no cookies), at `viewport`. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * A real Flagpole on a port (any free one unless given), serving the built UI, and a headless
 * Chromium. The UI is built by `npm install` / `npm run build`; the tests read what a user would get.
 */
export async function startUi(env: Record<string, string> = {}, port = 0): Promise<UiHarness> {
  if (!isUiBuilt()) throw new Error('The web UI is not built in dist/ui: run `npm run build` first.');
  // Chromium starts while the server prepares its database.
  const [server, browser] = await Promise.all([startTestServer(env), launchChromium()]);
  const base = await server.app.listen({ port, host: '127.0.0.1' });
  return {
    server,
    browser,
    base,
    async newPage(viewport = DESKTOP) {
      const context = await browser.newContext({ viewport, baseURL: base });
      const page = await context.newPage();
      // A script error fails the test where it happened instead of leaving a blank page to wait on.
      page.on('pageerror', (error) => {
        throw error;
      });
      return page;
    },
    async close() {
      await browser?.close();
      await server?.close();
    },
  };
}

/** Signs in through the sign-in page and waits for the first signed-in page. */
export async function signIn(
  page: Page,
  username = 'admin',
  password = 'unleash4all',
  path = '/',
): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('banner').waitFor();
}

/** Saves a screenshot of the page into ui/screenshots/ (committed: what the UI looks like now). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
