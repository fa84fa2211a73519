import type { App } from '../http/route.js';
import { permissionOf } from './applier.js';
import type { Action } from './commands.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The flag change this route applies through `applyChange` (see changes/applier.ts). */
    change?: Action;
  }
}

/** The config of a route that applies `action`: it asks the caller for the change's own permission. */
export function changeRoute(action: Action) {
  return { change: action, permission: permissionOf(action) };
}

// The paths of a flag's configuration: a project's features and what hangs off them, the archive,
// feature tags and segments. What writes there is a change of flags and goes through the applier.
const FLAG_PATHS = [
  /^\/api\/admin\/projects\/:projectId\/(features|archive|revive|delete|stale|tags|bulk_features)(\/|$)/,
  /^\/api\/admin\/features\/:featureName\/tags(\/|$)/,
  /^\/api\/admin\/archive\//,
  /^\/api\/admin\/segments(\/|$)/,
];

// Writes there that change nothing, or a view of a flag rather than the flag.
const NOT_CHANGES = new Set([
  'POST /api/admin/projects/:projectId/archive/validate',
  'POST /api/admin/segments/validate',
  'POST /api/admin/projects/:projectId/features/:featureName/favorites',
  'DELETE /api/admin/projects/:projectId/features/:featureName/favorites',
  // A flag's impact metric charts: how its measurements are drawn, not how it is served.
  'POST /api/admin/projects/:projectId/features/:featureName/impact-metrics/config',
  'DELETE /api/admin/projects/:projectId/features/:featureName/impact-metrics/config/:id',
]);

/** Whether a route at this method and path changes a flag's configuration. */
export function changesFlags(method: string, url: string): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  return FLAG_PATHS.some((p) => p.test(url)) && !NOT_CHANGES.has(`${method} ${url}`);
}

/**
 * Refuses, at start, a route that would change flags around the applier: every write to a flag's
 * configuration declares its change (`changeRoute`) and applies it with `applyChange`.
 */
export function requireDeclaredChanges(app: App): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((m) => changesFlags(m, route.url)) && route.config?.change === undefined) {
      throw new Error(
        `${methods.join(',')} ${route.url} changes flags: declare config: changeRoute(action) and apply it with applyChange`,
      );
    }
  });
}
