import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, createProxyConfig } from '@unleash/proxy';
import { createNewClient } from '@unleash/proxy/dist/create-client.js';
import { flags } from './flags.js';
import { stopSdk } from './official-sdk.js';
import type { TestServer } from './server.js';

export const PROXY_SECRET = 'some-secret';
export const PROXY_APP = 'proxy-e2e';

export interface RunningProxy {
  url: string;
  /** What the proxy logged as errors and warnings: a Flagpole answer it could not use shows here. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * Flags the proxy tests read: one on, one off, one on with a variant carrying a payload, one on
 * only for user 42 (a userWithId strategy).
 */
export async function createProxyFlags(server: TestServer): Promise<void> {
  const f = flags(server);
  await f.create('proxy-on');
  await f.enable('proxy-on', 'development');
  await f.create('proxy-off');
  await f.create('proxy-variant');
  await f.setVariants('proxy-variant', 'development', [
    {
      name: 'blue',
      weight: 1000,
      weightType: 'variable',
      stickiness: 'default',
      payload: { type: 'json', value: '{"color":"blue"}' },
    },
  ]);
  await f.enable('proxy-variant', 'development');
  await f.create('proxy-user');
  await f.addStrategy('proxy-user', 'development', { name: 'userWithId', parameters: { userIds: '42' } });
  await f.enable('proxy-user', 'development');
}

/** A client token for the development environment, made through the admin API. */
export async function createClientToken(server: TestServer): Promise<string> {
  const res = await server.request('POST', '/api/admin/api-tokens', {
    token: server.adminToken,
    body: { tokenName: 'unleash-proxy', type: 'client', environment: 'development' },
  });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${res.text}`);
  return res.body.secret as string;
}

/**
 * The open-source Unleash Proxy in this process, on a port of its own, reading Flagpole at
 * `flagpole` with a client token; it polls every second and posts its metrics every second.
 */
export async function startProxy(flagpole: string, clientToken: string): Promise<RunningProxy> {
  const problems: string[] = [];
  const note = (message: unknown) => problems.push(String(message));
  const options = {
    unleashUrl: `${flagpole}/api`,
    unleashApiToken: clientToken,
    unleashAppName: PROXY_APP,
    unleashInstanceId: 'proxy-1',
    clientKeys: [PROXY_SECRET],
    refreshInterval: 1000,
    metricsInterval: 1000,
    logger: { debug() {}, info() {}, warn: note, error: note, fatal: note },
  };
  const client = createNewClient(createProxyConfig(options));
  const app = createApp(options, client);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    problems,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      stopSdk(client.unleash);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
