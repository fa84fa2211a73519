import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import type { ReadOptions } from '../db/lock.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NotFoundError, ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { keepingAnAdmin } from '../identity/admins.js';
import { projectsOfGroups } from '../identity/grants.js';
import { resolveRootRole } from '../roles/service.js';
import { existingUserIds, findUsers, type User } from '../users/queries.js';
import { describeUser } from '../users/service.js';
import {
  deleteGroupRow,
  existingGroupIds,
  findGroup,
  findGroupByName,
  type Group,
  type GroupFields,
  insertGroup,
  listGroups,
  listMemberships,
  setMembers,
  updateGroupRow,
} from './store.js';

export interface GroupInput {
  name: string;
  description?: string | null;
  mappingsSSO?: string[];
  rootRole?: number | null;
  users?: { user: { id: number } }[];
}

export interface Member {
  groupId: number;
  user: User;
  joinedAt: Date;
  createdBy: string | null;
}

/** The members of the given groups (all groups when `groupIds` is null), earliest first. */
async function listMembers(db: Queryable, groupIds: number[] | null): Promise<Member[]> {
  const memberships = await listMemberships(db, groupIds);
  const users = new Map(
    (await findUsers(db, [...new Set(memberships.map((m) => m.userId))])).map((u) => [u.id, u]),
  );
  return memberships.flatMap(({ userId, ...m }) => {
    const user = users.get(userId);
    return user ? [{ ...m, user }] : [];
  });
}

function describeGroup(group: Group, members: Member[]) {
  return {
    ...group,
    users: members.map((m) => ({ user: describeUser(m.user), joinedAt: m.joinedAt, createdBy: m.createdBy })),
  };
}

/** What audit events say about a group: its fields, members as ids. */
function eventData(group: Group, memberIds: number[]) {
  return { ...group, users: memberIds };
}

export async function readGroups(db: Queryable) {
  const [groups, members, projects] = await Promise.all([
    listGroups(db),
    listMembers(db, null),
    projectsOfGroups(db),
  ]);
  const byGroup = new Map<number, Member[]>();
  for (const m of members) {
    const list = byGroup.get(m.groupId);
    if (list) list.push(m);
    else byGroup.set(m.groupId, [m]);
  }
  return {
    groups: groups.map((g) => {
      const own = byGroup.get(g.id) ?? [];
      return { ...describeGroup(g, own), userCount: own.length, projects: projects.get(g.id) ?? [] };
    }),
  };
}

async function getGroup(db: Queryable, id: number, options?: ReadOptions): Promise<Group> {
  const group = await findGroup(db, id, options);
  if (!group) throw new NotFoundError(`There is no group with the id ${id}.`);
  return group;
}

/** Locks the group (404 when there is none) while its grants in a project are changed. */
export async function lockGroup(tx: Transaction, id: number): Promise<void> {
  await getGroup(tx, id, { lock: 'update' });
}

export async function readGroup(db: Queryable, id: number) {
  const group = await getGroup(db, id);
  return describeGroup(group, await listMembers(db, [id]));
}

/** The ids among `ids` that name no group (for granting project access to groups). */
export async function unknownGroupIds(db: Queryable, ids: number[]): Promise<number[]> {
  const existing = await existingGroupIds(db, ids);
  return ids.filter((id) => !existing.has(id));
}

/** The body's rules that need the database: a root role for `rootRole`, members who exist. */
async function checkedInput(
  db: Queryable,
  input: GroupInput,
): Promise<{ fields: GroupFields; userIds: number[] }> {
  const name = input.name.trim();
  if (!name) {
    throw new ValidationError('A group needs a name that is not blank.', [
      { path: 'name', message: 'Must not be blank.' },
    ]);
  }
  const rootRole = input.rootRole ?? null;
  if (rootRole !== null) await resolveRootRole(db, rootRole);
  const userIds = [...new Set((input.users ?? []).map((u) => u.user.id))];
  const existing = await existingUserIds(db, userIds);
  const unknown = userIds.filter((id) => !existing.has(id));
  if (unknown.length > 0) {
    throw new ValidationError(
      `These users do not exist: ${unknown.join(', ')}. List only the ids of existing users.`,
      unknown.map((id) => ({ path: 'users', message: `There is no user with the id ${id}.` })),
    );
  }
  return {
    fields: { name, description: input.description ?? null, mappingsSSO: input.mappingsSSO ?? [], rootRole },
    userIds,
  };
}

async function assertNameFree(db: Queryable, name: string, exceptId?: number): Promise<void> {
  const other = await findGroupByName(db, name);
  if (other && other.id !== exceptId) {
    throw new NameExistsError(`A group named "${name}" already exists: choose another name.`);
  }
}

export async function createGroup(ctx: AppContext, actor: Actor, input: GroupInput) {
  const create = () =>
    ctx.db.transaction(async (tx) => {
      const { fields, userIds } = await checkedInput(tx, input);
      await assertNameFree(tx, fields.name);
      const group = await insertGroup(tx, fields, actor.name);
      await setMembers(tx, group.id, userIds, actor.name);
      recordEvent(tx, actor, { type: 'group-created', data: eventData(group, userIds) });
      return describeGroup(group, await listMembers(tx, [group.id]));
    });
  return checkAgainOnDuplicate(create, () => assertNameFree(ctx.db, input.name.trim()));
}

/**
 * E19: the body replaces the group, its root role (absent: none) and its members. The group's row
 * is locked before its members are read, so concurrent updates follow one another. A change that
 * takes Admin away from the last Admin users (members leaving a group with an Admin root role, or
 * the role changing) is refused.
 */
export async function updateGroup(ctx: AppContext, actor: Actor, id: number, input: GroupInput) {
  const update = () =>
    ctx.db.transaction((tx) =>
      keepingAnAdmin(tx, `This change of group ${id}`, async () => {
        const { fields, userIds } = await checkedInput(tx, input);
        const before = await getGroup(tx, id, { lock: 'update' });
        await assertNameFree(tx, fields.name, id);
        const previousMembers = await listMembers(tx, [id]);
        const after = await updateGroupRow(tx, id, fields);
        await setMembers(tx, id, userIds, actor.name);
        const members = await listMembers(tx, [id]);
        recordEvent(tx, actor, {
          type: 'group-updated',
          data: eventData(
            after,
            members.map((m) => m.user.id),
          ),
          preData: eventData(
            before,
            previousMembers.map((m) => m.user.id),
          ),
        });
        return describeGroup(after, members);
      }),
    );
  return checkAgainOnDuplicate(update, () => assertNameFree(ctx.db, input.name.trim(), id));
}

/** Deleting a group with an Admin root role is refused while its members are the last Admins. */
export async function deleteGroup(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction((tx) =>
    keepingAnAdmin(tx, `Deleting group ${id}`, async () => {
      const group = await getGroup(tx, id, { lock: 'exclusive' });
      const members = await listMembers(tx, [id]);
      await deleteGroupRow(tx, id);
      recordEvent(tx, actor, {
        type: 'group-deleted',
        preData: eventData(
          group,
          members.map((m) => m.user.id),
        ),
      });
    }),
  );
}

/** The groups as pickers need them: what each is, who is in it (by user id), how many. */
export async function readBaseGroups(db: Queryable) {
  const [groups, memberships] = await Promise.all([listGroups(db), listMemberships(db, null)]);
  const byGroup = new Map<number, number[]>();
  for (const m of memberships) {
    const list = byGroup.get(m.groupId);
    if (list) list.push(m.userId);
    else byGroup.set(m.groupId, [m.userId]);
  }
  return groups.map((g) => {
    const members = byGroup.get(g.id) ?? [];
    return {
      id: g.id,
      name: g.name,
      description: g.description,
      rootRole: g.rootRole,
      userCount: members.length,
      users: members.map((id) => ({ user: { id } })),
    };
  });
}
