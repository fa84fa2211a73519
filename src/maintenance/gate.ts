import { ServiceUnavailableError } from '../http/errors.js';
import type { App } from '../http/route.js';
import type { MaintenanceState } from './state.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An admin write that maintenance mode lets through (turning it off). */
    duringMaintenance?: boolean;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * While maintenance mode is on, every write to the admin API but the switch itself is refused with
 * 503, after the caller's credentials and permission were checked. SDKs (client and frontend API,
 * their metrics and registrations) and signing in and out are not admin API writes: they go on.
 */
export function registerMaintenanceGate(app: App, state: MaintenanceState): void {
  app.addHook('onRequest', async (request) => {
    if (!state.enabled || !WRITES.has(request.method)) return;
    const config = request.routeOptions.config;
    if (config.audience !== 'admin' || config.duringMaintenance) return;
    throw new ServiceUnavailableError(
      'Flagpole is in maintenance mode: the admin API takes no changes until an Admin turns it off ' +
        '(POST /api/admin/maintenance with {"enabled": false}). Reading goes on, and so do SDKs.',
    );
  });
}
