import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { eventually, rawMetrics } from '../metrics.js';
import { startTestServer, type TestServer } from '../server.js';
import { launchChromium } from './chromium.js';

const frontendToken = `default:development.${'b'.repeat(56)}`;
const FLAG = 'browser-flag';

// The SDK's own browser build (UMD: it defines the global `unleash`), as a page would load it. The
// package exports only its entry points; the build sits beside the CommonJS one.
const sdkBuild = path.dirname(createRequire(import.meta.url).resolve('unleash-proxy-client'));
const sdk = readFileSync(path.join(sdkBuild, 'main.min.js'));

/**
 * The page of a site other than Flagpole: it starts the SDK with the Flagpole address and token
 * in its query string, refreshing every second, and writes what the SDK sees into #state.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>shop</title><script src="/unleash.js"></script></head>
<body><pre id="state">starting</pre><pre id="errors"></pre>
<script>
  const query = new URLSearchParams(location.search);
  const client = new unleash.UnleashClient({
    url: query.get('url'),
    clientKey: query.get('key'),
    appName: 'shop-web',
    refreshInterval: 1,
    metricsInterval: 1,
    context: { userId: 'u-1' },
  });
  const show = () => {
    document.getElementById('state').textContent = JSON.stringify({
      enabled: client.isEnabled('${FLAG}'),
      variant: client.getVariant('${FLAG}').name,
      toggles: client.getAllToggles().length,
    });
  };
  client.on('ready', show);
  client.on('update', show);
  client.on('error', (e) => {
    document.getElementById('errors').textContent += (e && e.type) + ';';
    show();
  });
  client.start();
</script></body></html>`;

let server: TestServer;
let browser: Browser;
let flagpole: string;
let site: Server;
let siteOrigin: string;

beforeAll(async () => {
  server = await startTestServer({ INIT_FRONTEND_API_TOKENS: frontendToken });
  flagpole = await server.app.listen({ port: 0, host: '127.0.0.1' });
  site = createServer((request, response) => {
    if (request.url?.startsWith('/unleash.js')) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
    } else if (request.url?.startsWith('/shop')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const f = flags(server);
  await f.create(FLAG);
  await f.setVariants(FLAG, 'development', [
    { name: 'green', weight: 1000, weightType: 'variable', stickiness: 'default' },
  ]);
  await f.enable(FLAG, 'development');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await server?.close();
});

/** A fresh browser profile each time: the SDK keeps the flags it saw in the site's localStorage. */
async function openShop(): Promise<{ page: Page; console: string[]; polls: number[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const console: string[] = [];
  const polls: number[] = [];
  page.on('console', (message) => console.push(message.text()));
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname === '/api/frontend' && response.request().method() === 'GET')
      polls.push(response.status());
  });
  const url = new URL('/shop', siteOrigin);
  url.searchParams.set('url', `${flagpole}/api/frontend`);
  url.searchParams.set('key', frontendToken);
  await page.goto(url.toString());
  return { page, console, polls };
}

async function stateOf(page: Page, ok: (state: Record<string, unknown>) => boolean) {
  const read = async () => {
    const text = (await page.locator('#state').textContent()) ?? '';
    return text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : { text };
  };
  return eventually(read, ok, 15_000);
}

async function setOrigins(frontendApiOrigins: string[]) {
  const res = await server.request('POST', '/api/admin/ui-config/cors', {
    token: server.adminToken,
    body: { frontendApiOrigins },
  });
  expect(res.status).toBe(204);
}

describe('unleash-proxy-client in a page of another site', () => {
  it('shows the flag and its variant, follows a change made through the admin API, and reports its metrics', async () => {
    const { page, polls } = await openShop();
    expect(new URL(page.url()).origin).not.toBe(new URL(flagpole).origin);
    expect(await stateOf(page, (s) => s.enabled === true)).toEqual({
      enabled: true,
      variant: 'green',
      toggles: 1,
    });
    // Its polls name the ETag it read (exposed to it), and get 304 while nothing changed.
    await eventually(
      async () => polls,
      (p) => p.includes(304),
      10_000,
    );
    expect(polls[0]).toBe(200);
    expect(polls).toContain(304);

    await flags(server).disable(FLAG, 'development');
    expect(await stateOf(page, (s) => s.enabled === false)).toEqual({
      enabled: false,
      variant: 'disabled',
      toggles: 0,
    });
    await flags(server).enable(FLAG, 'development');
    expect(await stateOf(page, (s) => s.enabled === true)).toMatchObject({ enabled: true, variant: 'green' });

    // The SDK posts its counts cross-origin (a JSON POST: preflighted) every second.
    const raw = await eventually(
      () => rawMetrics(server, FLAG),
      (r) => r.body.data.some((d: { appName: string; yes: number }) => d.appName === 'shop-web' && d.yes > 0),
      15_000,
    );
    const counts = raw.body.data.filter((d: { appName: string }) => d.appName === 'shop-web').at(-1);
    expect(counts.yes).toBeGreaterThan(0);
    expect(counts.variants.green).toBeGreaterThan(0);
    await page.context().close();
  });

  it('is blocked by the browser when its origin is not allowed: the SDK sees no flags', async () => {
    await setOrigins(['https://allowed.example.com']);
    const { page, console } = await openShop();
    const state = await stateOf(page, (s) => s.toggles === 0);
    expect(state).toEqual({ enabled: false, variant: 'disabled', toggles: 0 });
    expect(await page.locator('#errors').textContent()).toContain('fetch-toggles');
    expect(console.join('\n')).toMatch(/blocked by CORS policy.*Access-Control-Allow-Origin/s);
    await page.context().close();

    await setOrigins([siteOrigin]);
    const allowed = await openShop();
    expect(await stateOf(allowed.page, (s) => s.enabled === true)).toMatchObject({
      enabled: true,
      toggles: 1,
    });
    await allowed.page.context().close();
  });
});
