import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { actorOf, type Identity } from '../http/identity.js';
import { lockAdmins, readAdminUsers } from '../identity/admins.js';
import { adminRoleIds } from '../roles/queries.js';
import { lastPatUse } from '../tokens/credentials.js';
import { deleteUserIn, gravatar } from './service.js';
import { countWithRoles, findUnseenUsers, listUsers, searchUsers, type User } from './store.js';

/** Unleash's rule: a user is inactive after 180 days without signing in or using a personal access token. */
const INACTIVE_DAYS = 180;
const INACTIVE_MS = INACTIVE_DAYS * 24 * 60 * 60 * 1000;

/** A search lists at most this many users: it feeds pickers, where people type until theirs shows. */
const SEARCH_LIMIT = 100;

/** Fewer characters than this match too much to be worth listing (Unleash answers `[]` too). */
const SEARCH_MIN_LENGTH = 2;

/** Flagpole has no service accounts; Unleash's answers name them, so every user is a `User`. */
const ACCOUNT_TYPE = 'User';

/**
 * What anyone signed in may learn about another user, to pick them: no role, no sign-in counts.
 * A missing `name` or `email` is left out, as Unleash leaves it out (its `email` is never null).
 */
function describePerson(u: User): { id: number; name?: string; username: string | null; email?: string } {
  return {
    id: u.id,
    ...(u.name !== null ? { name: u.name } : {}),
    username: u.username,
    ...(u.email !== null ? { email: u.email } : {}),
  };
}

export async function readUserSearch(db: Queryable, text: string) {
  const q = text.trim();
  if (q.length < SEARCH_MIN_LENGTH) return [];
  const users = await searchUsers(db, q, SEARCH_LIMIT);
  return users.map((u) => ({
    ...describePerson(u),
    imageUrl: u.imageUrl ?? gravatar(u.email),
    seenAt: u.seenAt,
    accountType: ACCOUNT_TYPE,
  }));
}

/** Every user, for pickers of the access pages, with their root role. */
export async function readBaseUsers(db: Queryable) {
  const users = await listUsers(db);
  return users.map((u) => ({
    ...describePerson(u),
    imageUrl: u.imageUrl ?? gravatar(u.email),
    rootRole: u.rootRole,
    accountType: ACCOUNT_TYPE,
  }));
}

/** Admins are the users whose root role holds `ADMIN`; Flagpole has no service accounts to count. */
export async function readAdminCount(db: Queryable) {
  const counts = await countWithRoles(db, await adminRoleIds(db));
  return { ...counts, service: 0 };
}

/** Not signed in for 180 days (or never, and made that long ago), and no PAT used in that time. */
async function inactiveUsers(db: Queryable, options?: Parameters<typeof findUnseenUsers>[2]) {
  const unseen = await findUnseenUsers(db, INACTIVE_DAYS, options);
  const patUse = await lastPatUse(
    db,
    unseen.map((u) => u.id),
  );
  const since = Date.now() - INACTIVE_MS;
  return unseen
    .map((user) => ({ user, patSeenAt: patUse.get(user.id) ?? null }))
    .filter(({ patSeenAt }) => patSeenAt === null || patSeenAt.getTime() < since);
}

export async function readInactiveUsers(db: Queryable) {
  const inactive = await inactiveUsers(db);
  return {
    version: 1 as const,
    inactiveUsers: inactive.map(({ user, patSeenAt }) => ({
      ...describePerson(user),
      seenAt: user.seenAt,
      createdAt: user.createdAt,
      patSeenAt,
    })),
  };
}

/**
 * Deletes those of `ids` that are inactive, each as `DELETE /api/admin/user-admin/:id` would (with
 * its `user-deleted` event); the others are left alone, as in Unleash. Never the caller, and never
 * the last Admin (counting Admins through groups): the Admins' lock is taken first, so that this
 * and any other change taking Admin away (two such requests at once included) cannot each remove
 * the Admin the other one counted on.
 */
export async function deleteInactiveUsers(ctx: AppContext, identity: Identity, ids: number[]): Promise<void> {
  const callerId = identity.kind === 'user' ? identity.userId : null;
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    await lockAdmins(tx);
    const admins = new Set((await readAdminUsers(tx)).map((a) => a.id));
    const wanted = [...new Set(ids)].filter((id) => id !== callerId);
    const inactive = await inactiveUsers(tx, { ids: wanted, lock: 'exclusive' });
    let adminsLeft = admins.size;
    for (const { user } of inactive) {
      if (admins.has(user.id)) {
        if (adminsLeft <= 1) continue;
        adminsLeft -= 1;
      }
      await deleteUserIn(tx, actor, user.id);
    }
  });
}
