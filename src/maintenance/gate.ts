import { ServiceUnavailableError } from '../http/errors.js';
import { type App, methodsOf } from '../http/route.js';
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
  const gate = async () => {
    if (!state.enabled) return;
    throw new ServiceUnavailableError(
      'Flagpole is in maintenance mode: the admin API takes no changes until an Admin turns it off ' +
        '(POST /api/admin/maintenance with {"enabled": false}). Reading goes on, and so do SDKs.',
    );
  };
  // Only on the admin API's writes, after the authentication hook: other routes pay nothing.
  app.addHook('onRoute', (route) => {
    if (route.config?.audience !== 'admin' || route.config.duringMaintenance) return;
    if (!methodsOf(route).some((m) => WRITES.has(m))) return;
    const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [...own, gate];
  });
}
