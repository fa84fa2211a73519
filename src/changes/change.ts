import type { AppContext } from '../app-context.js';
import type { FeatureEnvironmentPath } from '../features/environments/service.js';
import type { Identity } from '../http/identity.js';
import type { RoutePermission, Scope } from '../http/permissions.js';

/**
 * One kind of change: the permission it needs in the scope its command names, and what carries it
 * out. `run` validates, writes in one transaction and records the audit event, which moves the
 * configuration revision.
 */
export interface Change<C, R> {
  permission: RoutePermission;
  scope: (command: C, ctx: AppContext) => Scope;
  run: (ctx: AppContext, identity: Identity, command: C) => Promise<R>;
}

export function change<C, R>(
  permission: RoutePermission,
  scope: (command: C, ctx: AppContext) => Scope,
  run: (ctx: AppContext, identity: Identity, command: C) => Promise<R>,
): Change<C, R> {
  return { permission, scope, run };
}

/** A feature in one environment, as in `…/features/:featureName/environments/:environment`. */
export interface At {
  at: FeatureEnvironmentPath;
}

/** The scope of a command that names a feature's environment. */
export const inEnvironment = ({ at }: At) => ({ project: at.project, environment: at.environment });

/** The scope of a command that names its project. */
export const inProject = ({ project }: { project: string }) => ({ project });

/** The type of a service's argument: a command carries what the service is handed. */
// biome-ignore lint/suspicious/noExplicitAny: any function's parameters
export type Input<F extends (...args: any[]) => unknown, N extends number> = Parameters<F>[N];
