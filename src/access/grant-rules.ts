import type { Identity } from '../http/identity.js';

export interface RolePermissions {
  id: number;
  name: string;
  permissions: { name: string; environment: string }[];
}

/**
 * Whether the caller holds `permission` in `project` at least as widely as a role would give it:
 * a permission for every environment ('') needs a grant for every environment, one for a single
 * environment a grant there or everywhere.
 */
export function holdsInProject(
  identity: Identity,
  permission: string,
  project: string,
  environment: string,
): boolean {
  if (identity.kind === 'token') return identity.tokenType === 'admin';
  return identity.grants.some(
    (g) =>
      (g.project === null && (g.permission === 'ADMIN' || g.permission === permission)) ||
      (g.project === project &&
        g.permission === permission &&
        (g.environment === '' || g.environment === environment)),
  );
}

/** The roles among `roles` that give something the caller cannot do itself in the project. */
export function rolesBeyondCaller(
  identity: Identity,
  project: string,
  roles: RolePermissions[],
): RolePermissions[] {
  return roles.filter((role) =>
    role.permissions.some((p) => !holdsInProject(identity, p.name, project, p.environment)),
  );
}
