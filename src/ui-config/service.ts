import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { UiConfig } from './schemas.js';
import { flagpoleVersion } from './version.js';

/**
 * What Unleash's `GET /api/admin/ui-config` tells its UI, filled in for this server. Flagpole
 * answers at the root of its address, sends no email, has no experimental switches, takes OpenID
 * Connect settings only through the API, and checks for no newer release (so it reports none).
 */
export function readUiConfig(ctx: AppContext): Static<typeof UiConfig> {
  const version = flagpoleVersion();
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
    versionInfo: { current: { oss: version }, latest: {}, isLatest: true },
  };
}
