import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { readExternalSource } from '../impact-metrics/external.js';
import type { UiConfig } from './schemas.js';
import { flagpoleVersion } from './version.js';

/**
 * What Unleash's `GET /api/admin/ui-config` tells its UI, filled in for this server. Flagpole
 * answers at the root of its address, sends no email, has no experimental switches, takes OpenID
 * Connect settings only through the API, and checks for no newer release (so it reports none).
 * Impact metrics are always stored here (`internal`), and also read from an external Prometheus
 * once an Admin has set one up (`full`).
 */
export async function readUiConfig(ctx: AppContext): Promise<Static<typeof UiConfig>> {
  const version = flagpoleVersion();
  const external = await readExternalSource(ctx);
  return {
    version,
    environment: 'Open Source',
    unleashUrl: ctx.config.unleashUrl,
    baseUriPath: '',
    authenticationType: 'open-source',
    disablePasswordAuth: false,
    emailEnabled: false,
    maintenanceMode: ctx.maintenance.enabled,
    prometheusAPIAvailable: true,
    oidcConfiguredThroughEnv: false,
    frontendApiOrigins: [...ctx.frontendOrigins.current],
    flags: {},
    impactMetrics: external.enabled ? 'full' : 'internal',
    versionInfo: { current: { oss: version }, latest: {}, isLatest: true },
  };
}
