import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { eventually } from '../metrics.js';
import { startTestServer, type TestServer } from '../server.js';
import {
  createClientToken,
  createProxyFlags,
  PROXY_SECRET,
  type RunningProxy,
  startProxy,
} from '../unleash-proxy.js';
import { launchChromium } from './chromium.js';

/**
 * A shop's page bundling `unleash-proxy-client` as an app would (esbuild), pointed at the proxy
 * named in its query string, refreshing every second; it writes what the SDK sees into #state.
 */
async function shopScript(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `
        import { UnleashClient } from 'unleash-proxy-client';
        const query = new URLSearchParams(location.search);
        const client = new UnleashClient({
          url: query.get('url'),
          clientKey: query.get('key'),
          appName: 'shop-web',
          refreshInterval: 1,
          metricsInterval: 1,
          context: { userId: '42' },
        });
        const show = () => {
          const variant = client.getVariant('proxy-variant');
          document.getElementById('state').textContent = JSON.stringify({
            on: client.isEnabled('proxy-on'),
            off: client.isEnabled('proxy-off'),
            user: client.isEnabled('proxy-user'),
            variant: variant.name,
            payload: variant.payload && variant.payload.value,
          });
        };
        client.on('ready', show);
        client.on('update', show);
        client.start();
      `,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
  });
  return out.outputFiles[0]?.text ?? '';
}

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>shop</title></head>
<body><pre id="state">starting</pre><script src="/shop.js"></script></body></html>`;

let server: TestServer;
let proxy: RunningProxy;
let browser: Browser;
let site: Server;
let siteOrigin: string;

beforeAll(async () => {
  server = await startTestServer();
  const flagpole = await server.app.listen({ port: 0, host: '127.0.0.1' });
  await createProxyFlags(server);
  proxy = await startProxy(flagpole, await createClientToken(server));
  const script = await shopScript();
  site = createServer((request, response) => {
    if (request.url?.startsWith('/shop.js')) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else if (request.url?.startsWith('/shop')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await proxy?.close();
  await server?.close();
});

async function stateOf(page: Page, ok: (state: Record<string, unknown>) => boolean) {
  const read = async () => {
    const text = (await page.locator('#state').textContent()) ?? '';
    return text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : { text };
  };
  return eventually(read, ok, 15_000);
}

describe('unleash-proxy-client in a page of another site, reading the Unleash Proxy in front of Flagpole', () => {
  it('shows the flags and the variant, and follows a change made in Flagpole', async () => {
    const page = await (await browser.newContext()).newPage();
    const url = new URL('/shop', siteOrigin);
    url.searchParams.set('url', `${proxy.url}/proxy`);
    url.searchParams.set('key', PROXY_SECRET);
    await page.goto(url.toString());
    expect(new URL(page.url()).origin).not.toBe(new URL(proxy.url).origin);

    expect(await stateOf(page, (s) => s.on === true)).toEqual({
      on: true,
      off: false,
      user: true,
      variant: 'blue',
      payload: '{"color":"blue"}',
    });
    await flags(server).enable('proxy-off', 'development');
    expect(await stateOf(page, (s) => s.off === true)).toMatchObject({ on: true, off: true });
    await flags(server).disable('proxy-on', 'development');
    expect(await stateOf(page, (s) => s.on === false)).toMatchObject({ on: false, off: true });
    expect(proxy.problems).toEqual([]);
  });
});
