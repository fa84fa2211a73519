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
    stopSdk(sdk);
    throw error;
  }
  return sdk;
}

/**
 * Stops an SDK for good. Its `destroy()` drops the listeners of its flag repository while a fetch
 * may still be in flight: that fetch failing once the test server has closed would emit 'error'
 * with no listener, thrown as an unhandled rejection in whatever test file runs next.
 */
export function stopSdk(sdk: Unleash | undefined): void {
  if (!sdk) return;
  sdk.destroy();
  (sdk as unknown as { repository: { on(event: 'error', listener: () => void): void } }).repository.on(
    'error',
    () => {},
  );
}
