import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { findGroups } from '../groups/queries.js';
import { lockGroup, unknownGroupIds } from '../groups/service.js';
import { NoAccessError, ValidationError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import {
  grantRoles,
  groupGrantsInProject,
  type Holder,
  rolesOfHolder,
  setRolesOfHolder,
  userGrantsInProject,
} from '../identity/grants.js';
import { getProject } from '../projects/service.js';
import { listProjectRoles, type RoleWithPermissions, rolesWithPermissions } from '../roles/service.js';
import { existingUserIds, findUsers } from '../users/queries.js';
import { getUser } from '../users/service.js';
import { rolesBeyondCaller } from './grant-rules.js';

function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}

/** Every id must be an existing project role (Owner, Member or custom): root roles are not granted in projects. */
async function projectRoles(db: Queryable, ids: number[]): Promise<RoleWithPermissions[]> {
  const roles = await rolesWithPermissions(db, ids);
  const valid = roles.filter((r) => r.type === 'project' || r.type === 'custom');
  const invalid = ids.filter((id) => !valid.some((r) => r.id === id));
  if (invalid.length > 0) {
    throw new ValidationError(
      `These roles do not exist or are not project roles: ${invalid.join(', ')}. ` +
        'Grant Owner (4), Member (5) or a custom project role; root roles are given to users, not in projects.',
      invalid.map((id) => ({ path: 'roles', message: `${id} is not a project role.` })),
    );
  }
  return valid;
}

async function assertUsersExist(db: Queryable, ids: number[]): Promise<void> {
  const existing = await existingUserIds(db, ids);
  const unknown = ids.filter((id) => !existing.has(id));
  if (unknown.length > 0) {
    throw new ValidationError(
      `These users do not exist: ${unknown.join(', ')}.`,
      unknown.map((id) => ({ path: 'users', message: `There is no user with the id ${id}.` })),
    );
  }
}

async function assertGroupsExist(db: Queryable, ids: number[]): Promise<void> {
  const unknown = await unknownGroupIds(db, ids);
  if (unknown.length > 0) {
    throw new ValidationError(
      `These groups do not exist: ${unknown.join(', ')}.`,
      unknown.map((id) => ({ path: 'groups', message: `There is no group with the id ${id}.` })),
    );
  }
}

/** Nobody hands out, or takes away, more than they may do themselves in the project. */
function assertMayGrant(identity: Identity, project: string, roles: RoleWithPermissions[]): void {
  const beyond = rolesBeyondCaller(identity, project, roles);
  if (beyond.length === 0) return;
  throw new NoAccessError(
    `You may only grant or remove roles whose permissions you hold yourself in the project "${project}": ` +
      `${beyond.map((r) => `"${r.name}"`).join(', ')} ${beyond.length === 1 ? 'gives' : 'give'} more than you have.`,
  );
}

export interface AccessInput {
  roles: number[];
  users: number[];
  groups: number[];
}

/** E3: every role to every user and group, added to what they already have. */
export async function addAccess(ctx: AppContext, identity: Identity, projectId: string, input: AccessInput) {
  const roleIds = unique(input.roles);
  const userIds = unique(input.users);
  const groupIds = unique(input.groups);
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    const roles = await projectRoles(tx, roleIds);
    await assertUsersExist(tx, userIds);
    await assertGroupsExist(tx, groupIds);
    await getProject(tx, projectId);
    assertMayGrant(identity, projectId, roles);
    await grantRoles(tx, projectId, roleIds, userIds, groupIds, actor.name);
    recordEvent(tx, actor, {
      type: 'project-access-added',
      project: projectId,
      data: { roles: roleIds.map((roleId) => ({ roleId, userIds, groupIds })) },
    });
  });
}

/** The users holding roles in the project, by id, with their profiles. */
async function usersWithAccess(db: Queryable, projectId: string) {
  const grants = await userGrantsInProject(db, projectId);
  const users = new Map(
    (
      await findUsers(
        db,
        grants.map((g) => g.id),
      )
    ).map((u) => [u.id, u]),
  );
  return grants.flatMap(({ id, roles }) => {
    const u = users.get(id);
    return u ? [{ id, username: u.username, name: u.name, email: u.email, imageUrl: u.imageUrl, roles }] : [];
  });
}

/** The groups holding roles in the project, by id. */
async function groupsWithAccess(db: Queryable, projectId: string) {
  const grants = await groupGrantsInProject(db, projectId);
  const groups = new Map(
    (
      await findGroups(
        db,
        grants.map((g) => g.id),
      )
    ).map((g) => [g.id, g]),
  );
  return grants.flatMap(({ id, roles }) => {
    const g = groups.get(id);
    return g ? [{ id, name: g.name, description: g.description, roles }] : [];
  });
}

export async function readAccess(db: Queryable, projectId: string) {
  await getProject(db, projectId);
  const [roles, users, groups] = await Promise.all([
    listProjectRoles(db),
    usersWithAccess(db, projectId),
    groupsWithAccess(db, projectId),
  ]);
  return { roles, users, groups };
}

/**
 * 404 when the user or group does not exist; its row stays locked, so that changes of its roles
 * in a project happen one after the other, each seeing the roles the one before left.
 */
async function lockHolder(tx: Transaction, holder: Holder): Promise<void> {
  if (holder.kind === 'user') await getUser(tx, holder.id, { lock: 'update' });
  else await lockGroup(tx, holder.id);
}

function eventKey(holder: Holder) {
  return holder.kind === 'user' ? { userId: holder.id } : { groupId: holder.id };
}

/** The user's or group's roles in the project become exactly `roleIds`. */
export async function setProjectRoles(
  ctx: AppContext,
  identity: Identity,
  projectId: string,
  holder: Holder,
  roleIds: number[],
) {
  const wanted = unique(roleIds);
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    const roles = await projectRoles(tx, wanted);
    await getProject(tx, projectId);
    await lockHolder(tx, holder);
    const current = await rolesOfHolder(tx, projectId, holder);
    const added = roles.filter((r) => !current.includes(r.id));
    const removed = await rolesWithPermissions(
      tx,
      current.filter((id) => !wanted.includes(id)),
    );
    assertMayGrant(identity, projectId, [...added, ...removed]);
    await setRolesOfHolder(tx, projectId, holder, wanted, actor.name);
    recordEvent(tx, actor, {
      type: `project-access-${holder.kind}-roles-updated`,
      project: projectId,
      data: { ...eventKey(holder), roles: [...wanted].sort((a, b) => a - b) },
      preData: { ...eventKey(holder), roles: current },
    });
  });
}

/** Takes every role of the user or group in the project away. */
export async function removeProjectRoles(
  ctx: AppContext,
  identity: Identity,
  projectId: string,
  holder: Holder,
) {
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    await getProject(tx, projectId);
    await lockHolder(tx, holder);
    const current = await rolesOfHolder(tx, projectId, holder);
    assertMayGrant(identity, projectId, await rolesWithPermissions(tx, current));
    await setRolesOfHolder(tx, projectId, holder, [], actor.name);
    recordEvent(tx, actor, {
      type: `project-access-${holder.kind}-roles-deleted`,
      project: projectId,
      preData: { ...eventKey(holder), roles: current },
    });
  });
}
