import { NoAccessError } from './errors.js';
import type { Identity } from './identity.js';

/** Every permission name a role can hold (see the seed in db/migrations/001_foundation.sql). */
export const PERMISSIONS = [
  'ADMIN',
  'CREATE_FEATURE',
  'UPDATE_FEATURE',
  'UPDATE_FEATURE_DEPENDENCY',
  'DELETE_FEATURE',
  'CREATE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  'MOVE_FEATURE_TOGGLE',
  'UPDATE_PROJECT',
  'DELETE_PROJECT',
  'CREATE_PROJECT',
  'CREATE_CONTEXT_FIELD',
  'UPDATE_CONTEXT_FIELD',
  'DELETE_CONTEXT_FIELD',
  'CREATE_SEGMENT',
  'UPDATE_SEGMENT',
  'DELETE_SEGMENT',
  'UPDATE_APPLICATION',
  'CREATE_ROLE',
  'UPDATE_ROLE',
  'DELETE_ROLE',
  'UPDATE_INSTANCE_BANNERS',
  'READ_CLIENT_API_TOKEN',
  'CREATE_CLIENT_API_TOKEN',
  'DELETE_CLIENT_API_TOKEN',
  'READ_FRONTEND_API_TOKEN',
  'CREATE_FRONTEND_API_TOKEN',
  'DELETE_FRONTEND_API_TOKEN',
  'READ_PROJECT_API_TOKEN',
  'CREATE_PROJECT_API_TOKEN',
  'DELETE_PROJECT_API_TOKEN',
  'CREATE_TAG_TYPE',
  'UPDATE_TAG_TYPE',
  'DELETE_TAG_TYPE',
  'CREATE_ADDON',
  'UPDATE_ADDON',
  'DELETE_ADDON',
  'PROJECT_CHANGE_REQUEST_READ',
  'PROJECT_CHANGE_REQUEST_WRITE',
  'APPROVE_CHANGE_REQUEST',
  'APPLY_CHANGE_REQUEST',
  'SKIP_CHANGE_REQUEST',
  'RELEASE_PLAN_TEMPLATE_CREATE',
  'RELEASE_PLAN_TEMPLATE_UPDATE',
  'RELEASE_PLAN_TEMPLATE_DELETE',
  'UPDATE_PROJECT_RELEASE_TEMPLATE',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/**
 * What a route asks of its caller: `NONE` lets any identity the route's audience accepts in;
 * a list means any one of them (the service then narrows it down).
 */
export type RoutePermission = Permission | readonly Permission[] | 'NONE';

export interface Scope {
  project?: string;
  environment?: string;
}

/**
 * Root grants (project null) apply everywhere; project grants only in their project, and in their
 * environment when they name one. A check without an environment accepts a grant in any environment.
 */
export function can(identity: Identity, permission: Permission, scope: Scope = {}): boolean {
  if (identity.kind === 'token') return identity.tokenType === 'admin';
  return identity.grants.some((g) => {
    if (g.project === null) return g.permission === 'ADMIN' || g.permission === permission;
    return (
      g.permission === permission &&
      g.project === scope.project &&
      (g.environment === '' || scope.environment === undefined || g.environment === scope.environment)
    );
  });
}

/**
 * Whether the identity holds one of the permissions anywhere: instance-wide, or in some project or
 * environment. For what is decided before the request says where (the size of a body it may send).
 */
export function holdsAnywhere(identity: Identity, permissions: readonly Permission[]): boolean {
  if (identity.kind === 'token') return identity.tokenType === 'admin';
  return identity.grants.some(
    (g) =>
      (g.project === null && g.permission === 'ADMIN') || permissions.includes(g.permission as Permission),
  );
}

export function isAdmin(identity: Identity): boolean {
  return can(identity, 'ADMIN');
}

export function assertPermission(identity: Identity, permission: RoutePermission, scope: Scope = {}): void {
  if (permission === 'NONE') return;
  const wanted: readonly Permission[] = typeof permission === 'string' ? [permission] : permission;
  if (wanted.some((p) => can(identity, p, scope))) return;
  const where = [
    scope.project !== undefined ? ` in the project "${scope.project}"` : '',
    scope.environment !== undefined ? ` in the environment "${scope.environment}"` : '',
  ].join('');
  throw new NoAccessError(
    `You need the ${wanted.map((p) => `"${p}"`).join(' or ')} permission${where} to do this.`,
  );
}
