import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server.js';
import { launchChromium } from './chromium.js';

let server: TestServer;
let browser: Browser;
let base: string;

beforeAll(async () => {
  server = await startTestServer();
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the API reference at /docs', () => {
  it('renders in a browser with the operations of the OpenAPI document', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/docs`);
    const title = page.locator('.swagger-ui .info .title');
    await title.waitFor({ timeout: 20_000 });
    expect(await title.textContent()).toContain('Flagpole');
    const path = page.locator('.opblock-summary-path', { hasText: '/api/admin/banners/{id}' }).first();
    await path.waitFor({ state: 'visible' });
    expect(await page.locator('.opblock-summary-path').count()).toBeGreaterThan(100);
    await page.close();
  });
});
