import { InMemStorageProvider, Unleash } from 'unleash-client';

/** The official Node SDK against the server, polling and reporting metrics often. */
export async function startSdk(base: string, token: string, appName = 'ui-e2e'): Promise<Unleash> {
  const sdk = new Unleash({
    url: `${base}/api/`,
    appName,
    instanceId: `${appName}-1`,
    customHeaders: { Authorization: token },
    refreshInterval: 200,
    metricsInterval: 500,
    metricsJitter: 0,
    storageProvider: new InMemStorageProvider(),
  });
  sdk.on('error', () => {});
  sdk.on('warn', () => {});
  await new Promise((resolve) => sdk.once('synchronized', resolve));
  return sdk;
}

/** Waits until `condition` holds, checking every 50 ms. */
export async function until(condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
