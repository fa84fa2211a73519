import { InMemStorageProvider, Unleash, type UnleashConfig } from 'unleash-client';

/**
 * The official Node SDK against a test server at `address`, once it holds the flags (rejects on
 * its first error before that). Metrics off, flags kept in memory; `options` add or override.
 */
export async function synchronizedSdk(
  address: string,
  token: string,
  options: Partial<UnleashConfig> & Pick<UnleashConfig, 'appName'>,
): Promise<Unleash> {
  const sdk = new Unleash({
    url: `${address}/api`,
    customHeaders: { Authorization: token },
    disableMetrics: true,
    storageProvider: new InMemStorageProvider(),
    ...options,
  });
  // Errors after this (its server gone when the file ends) are not the test's: an SDK emitting
  // 'error' with no listener throws it from its fetch, as an unhandled rejection.
  sdk.on('error', () => {});
  try {
    await new Promise<void>((resolve, reject) => {
      sdk.once('synchronized', () => resolve());
      sdk.once('error', reject);
    });
  } catch (error) {
    sdk.destroy();
    throw error;
  }
  return sdk;
}
