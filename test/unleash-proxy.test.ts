import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from './flags.js';
import { eventually } from './metrics.js';
import { startTestServer, type TestServer } from './server.js';
import {
  createClientToken,
  createProxyFlags,
  PROXY_APP,
  PROXY_SECRET,
  type RunningProxy,
  startProxy,
} from './unleash-proxy.js';

let server: TestServer;
let proxy: RunningProxy;

beforeAll(async () => {
  server = await startTestServer();
  const flagpole = await server.app.listen({ port: 0, host: '127.0.0.1' });
  await createProxyFlags(server);
  proxy = await startProxy(flagpole, await createClientToken(server));
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

interface Toggle {
  name: string;
  enabled: boolean;
  variant: { name: string; enabled: boolean; payload?: { type: string; value: string } };
}

async function toggles(userId: string): Promise<{ status: number; toggles: Toggle[] }> {
  const res = await fetch(`${proxy.url}/proxy?userId=${userId}`, {
    headers: { Authorization: PROXY_SECRET },
  });
  const body = res.status === 200 ? ((await res.json()) as { toggles: Toggle[] }) : { toggles: [] };
  return { status: res.status, toggles: body.toggles };
}

const names = (list: Toggle[]) => list.map((t) => t.name).sort();

describe('the open-source Unleash Proxy reading Flagpole with a client token', () => {
  it('serves the enabled flags for the user, with the variant and its payload', async () => {
    const forUser42 = await eventually(
      () => toggles('42'),
      (r) => r.status === 200,
      15_000,
    );
    expect(names(forUser42.toggles)).toEqual(['proxy-on', 'proxy-user', 'proxy-variant']);
    expect(forUser42.toggles.find((t) => t.name === 'proxy-variant')?.variant).toMatchObject({
      name: 'blue',
      enabled: true,
      payload: { type: 'json', value: '{"color":"blue"}' },
    });
    expect(forUser42.toggles.find((t) => t.name === 'proxy-on')?.variant).toMatchObject({
      name: 'disabled',
      enabled: false,
    });
    expect(names((await toggles('7')).toggles)).toEqual(['proxy-on', 'proxy-variant']);
  });

  it('refuses a request without one of its client keys', async () => {
    const res = await fetch(`${proxy.url}/proxy?userId=42`, { headers: { Authorization: 'wrong' } });
    expect(res.status).toBe(401);
  });

  it('serves a change made in Flagpole after its next poll', async () => {
    await flags(server).enable('proxy-off', 'development');
    const after = await eventually(
      () => toggles('7'),
      (r) => r.toggles.some((t) => t.name === 'proxy-off'),
      10_000,
    );
    expect(names(after.toggles)).toEqual(['proxy-off', 'proxy-on', 'proxy-variant']);
    await flags(server).disable('proxy-on', 'development');
    const later = await eventually(
      () => toggles('7'),
      (r) => !r.toggles.some((t) => t.name === 'proxy-on'),
      10_000,
    );
    expect(names(later.toggles)).toEqual(['proxy-off', 'proxy-variant']);
  });

  it('registers with Flagpole and its metrics are accepted', async () => {
    const app = await eventually(
      () =>
        server.request('GET', `/api/admin/metrics/applications/${PROXY_APP}`, { token: server.adminToken }),
      (r) => r.status === 200 && r.body.instances.length > 0,
      10_000,
    );
    expect(app.body.instances[0]).toMatchObject({ instanceId: 'proxy-1', environment: 'development' });
    // What a browser SDK sends the proxy; the proxy adds it to its own report to Flagpole.
    const start = new Date();
    const posted = await fetch(`${proxy.url}/proxy/client/metrics`, {
      method: 'POST',
      headers: { Authorization: PROXY_SECRET, 'content-type': 'application/json' },
      body: JSON.stringify({
        appName: 'shop-web',
        instanceId: 'browser-1',
        bucket: {
          start: start.toISOString(),
          stop: new Date(start.getTime() + 1000).toISOString(),
          toggles: { 'proxy-user': { yes: 3, no: 1, variants: {} } },
        },
      }),
    });
    expect(posted.status).toBe(200);
    const raw = await eventually(
      () =>
        server.request('GET', '/api/admin/client-metrics/features/proxy-user/raw?hoursBack=1', {
          token: server.adminToken,
        }),
      (r) =>
        r.body?.data?.some((d: { appName: string; yes: number }) => d.appName === PROXY_APP && d.yes >= 3),
      12_000,
    );
    expect(raw.body.data.find((d: { appName: string }) => d.appName === PROXY_APP)).toMatchObject({
      environment: 'development',
      yes: 3,
      no: 1,
    });
    expect(proxy.problems).toEqual([]);
  });
});
