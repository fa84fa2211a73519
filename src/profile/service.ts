import type { Queryable } from '../db/database.js';
import { groupsOfUser } from '../groups/queries.js';
import { AuthenticationRequired } from '../http/errors.js';
import type { Identity, UserIdentity } from '../http/identity.js';
import { projectRolesOfUser } from '../identity/grants.js';
import { findRoles, type RoleRow } from '../roles/queries.js';
import { hasPassword } from '../users/queries.js';
import { getUser } from '../users/service.js';

/** A profile is a person's: an API token is nobody, so it has none (as for feedback). */
function requireUser(identity: Identity): UserIdentity {
  if (identity.kind !== 'user') {
    throw new AuthenticationRequired(
      'Only a user has a profile and roles: sign in or use a personal access token.',
    );
  }
  return identity;
}

function describeRole(role: RoleRow, project: string | null) {
  return { id: role.id, name: role.name, type: role.type, description: role.description, project };
}

/** The caller's root role, its project memberships and groups, as Unleash's `profileSchema`. */
export async function readProfile(db: Queryable, identity: Identity) {
  const { userId } = requireUser(identity);
  const user = await getUser(db, userId);
  const [[rootRole], held, groups, password] = await Promise.all([
    findRoles(db, [user.rootRole]),
    projectRolesOfUser(db, userId, null),
    groupsOfUser(db, userId),
    hasPassword(db, userId),
  ]);
  return {
    rootRole: describeRole(rootRole!, null),
    projects: [...new Set(held.map((h) => h.project))],
    groups: groups.map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      mappingsSSO: g.mappingsSSO,
      rootRole: g.rootRole,
    })),
    // Flagpole sends no e-mail, so there is nothing to subscribe to.
    subscriptions: [],
    // Deprecated in Unleash, which always answers an empty list.
    features: [],
    canChangePassword: password,
  };
}

/**
 * Every role the caller holds, directly or through groups: root roles first (their own, then
 * their groups'), then project roles by project; with `project`, only that project's.
 */
export async function readOwnRoles(db: Queryable, identity: Identity, project: string | null) {
  const { userId } = requireUser(identity);
  const user = await getUser(db, userId);
  const [held, groups] = await Promise.all([
    projectRolesOfUser(db, userId, project),
    groupsOfUser(db, userId),
  ]);
  const rootIds = [
    ...new Set([user.rootRole, ...groups.flatMap((g) => (g.rootRole === null ? [] : [g.rootRole]))]),
  ];
  const roles = new Map(
    (await findRoles(db, [...rootIds, ...held.map((h) => h.roleId)])).map((r) => [r.id, r]),
  );
  return {
    version: 1 as const,
    roles: [
      ...rootIds.flatMap((id) => (roles.has(id) ? [describeRole(roles.get(id)!, null)] : [])),
      ...held.flatMap((h) => (roles.has(h.roleId) ? [describeRole(roles.get(h.roleId)!, h.project)] : [])),
    ],
  };
}
