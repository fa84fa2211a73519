import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { eventually } from '../metrics.js';
import { startTestServer, type TestServer } from '../server.js';
import { launchChromium } from './chromium.js';

const frontendToken = `default:development.${'e'.repeat(56)}`;

/**
 * What a shop's page would bundle: OpenFeature's web SDK with the OFREP web provider, pointed at
 * Flagpole, polling every half second; `window.flags` reads the flags as the page sees them.
 */
const ENTRY = `
import { OpenFeature } from '@openfeature/web-sdk';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
window.start = async (baseUrl, token, targetingKey) => {
  await OpenFeature.setContext({ targetingKey });
  await OpenFeature.setProviderAndWait(
    new OFREPWebProvider({ baseUrl, headers: [['Authorization', token]], pollInterval: 500 }),
  );
};
window.setUser = (targetingKey) => OpenFeature.setContext({ targetingKey });
window.flags = () => {
  const client = OpenFeature.getClient();
  const checkout = client.getBooleanDetails('checkout', false);
  return {
    checkout: checkout.value,
    checkoutReason: checkout.reason,
    greeting: client.getStringValue('greeting', 'Hello'),
    later: client.getBooleanValue('later', false),
    missing: client.getBooleanDetails('missing', true).errorCode,
  };
};
`;

/** What the page's bundle defines, as the test calls it inside the page. */
interface Shop {
  start(baseUrl: string, token: string, targetingKey: string): Promise<void>;
  setUser(targetingKey: string): Promise<void>;
  flags(): Record<string, unknown>;
}

let server: TestServer;
let browser: Browser;
let flagpole: string;
let site: Server;
let siteOrigin: string;
const polls: number[] = [];

beforeAll(async () => {
  server = await startTestServer({ INIT_FRONTEND_API_TOKENS: frontendToken });
  flagpole = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: fileURLToPath(new URL('../..', import.meta.url)) },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.contents;
  site = createServer((request, response) => {
    if (request.url === '/shop.js')
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (request.url === '/shop')
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>shop</title><script src="/shop.js"></script>');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const f = flags(server);
  await f.create('checkout');
  await f.addStrategy('checkout', 'development', {
    name: 'default',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }],
  });
  await f.enable('checkout', 'development');
  await f.create('greeting');
  await f.setVariants('greeting', 'development', [
    {
      name: 'norwegian',
      weight: 1000,
      weightType: 'variable',
      stickiness: 'default',
      payload: { type: 'string', value: 'Hei' },
    },
  ]);
  await f.enable('greeting', 'development');
  await f.create('later');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await server?.close();
});

async function openShop(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/ofrep/v1/evaluate/flags') polls.push(response.status());
  });
  await page.goto(`${siteOrigin}/shop`);
  await page.evaluate(
    ([url, token]) => (globalThis as unknown as Shop).start(url, token, 'bob'),
    [flagpole, frontendToken],
  );
  return page;
}

const flagsOf = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as Shop).flags() as Record<string, unknown>);

describe("OpenFeature's OFREP web provider in a page of another site", () => {
  it('gets the flags evaluated for its user, follows a change of user and of the flags, and polls with the ETag', async () => {
    const page = await openShop();
    expect(await flagsOf(page)).toEqual({
      checkout: false,
      checkoutReason: 'DEFAULT',
      greeting: 'Hei',
      later: false,
      missing: 'FLAG_NOT_FOUND',
    });
    await page.evaluate(() => (globalThis as unknown as Shop).setUser('alice'));
    await eventually(
      () => flagsOf(page),
      (state) => state.checkout === true,
      10_000,
    );
    await flags(server).enable('later', 'development');
    await eventually(
      () => flagsOf(page),
      (state) => state.later === true,
      10_000,
    );
    // Polls between changes were answered 304 (the provider sent the ETag back).
    await eventually(
      async () => polls.filter((status) => status === 304).length,
      (count) => count > 0,
      10_000,
    );
    expect(polls.every((status) => status === 200 || status === 304)).toBe(true);
  });
});
