import { createHash } from 'node:crypto';
import type { AppContext } from '../app-context.js';
import { takeAdvisoryLock } from '../db/advisory-locks.js';
import type { Queryable, Transaction } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import type { ReadOptions } from '../db/lock.js';
import { recordEvent } from '../events/service.js';
import { listFeedback } from '../feedback/service.js';
import { AuthenticationRequired, NameExistsError, NotFoundError, ValidationError } from '../http/errors.js';
import type { Actor, Identity } from '../http/identity.js';
import { keepingAnAdmin } from '../identity/admins.js';
import { listRootRoles } from '../roles/queries.js';
import { resolveRootRole } from '../roles/service.js';
import { assertStrongPassword, hashPassword, verifyPassword } from './password.js';
import {
  countUsers,
  deleteUser,
  findLoginClashes,
  findUser,
  findUserByLogin,
  insertUser,
  type LoginClash,
  listUsers,
  type User,
  updateUser,
} from './store.js';

export function gravatar(email: string | null): string | null {
  if (!email) return null;
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://gravatar.com/avatar/${hash}?s=42&d=retro&r=g`;
}

export function describeUser(u: User) {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    username: u.username,
    imageUrl: u.imageUrl ?? gravatar(u.email),
    rootRole: u.rootRole,
    loginAttempts: u.loginAttempts,
    seenAt: u.seenAt,
    createdAt: u.createdAt,
    isAPI: false,
    accountType: 'User',
    emailSent: false,
  };
}

/** What an audit event may say about a user: never a password or its hash. */
function eventData(u: User) {
  return { id: u.id, username: u.username, email: u.email, name: u.name, rootRole: u.rootRole };
}

function checkEmail(email: string | null): void {
  if (email !== null && !/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw new ValidationError(`"${email}" is not an email address.`, [
      { path: 'email', message: 'Not an email address.' },
    ]);
  }
}

function crossedLoginMessage(clash: LoginClash, value: string): string {
  return clash.field === 'username'
    ? `The username "${value}" is another user's e-mail address: people sign in with either, so one login must name one user. Choose another username.`
    : `The e-mail address "${value}" is another user's username: people sign in with either, so one login must name one user. Use another address, or change that user's username first.`;
}

/**
 * No other user (but `exceptId`) may have this username or e-mail: in the same column, 400 as
 * Unleash answers; in the other column (a username that is someone's e-mail, or the other way
 * round), 409 naming the field, since sign-in could not tell whom it names. The database holds
 * the same rule (`user_logins`), for requests racing each other.
 */
async function assertLoginsFree(
  db: Queryable,
  username: string | null,
  email: string | null,
  exceptId = 0,
): Promise<void> {
  const clashes = await findLoginClashes(db, username, email, exceptId);
  const same = clashes.find((c) => c.field === c.heldAs);
  if (same) {
    throw new ValidationError(
      same.field === 'username'
        ? 'A user with that username already exists.'
        : 'Another user already has that email.',
      [{ path: same.field, message: 'Already taken.' }],
    );
  }
  const crossed = clashes[0];
  if (crossed) {
    const value = (crossed.field === 'username' ? username : email)!;
    throw new NameExistsError(crossedLoginMessage(crossed, value), [
      {
        path: crossed.field,
        message: `Another user's ${crossed.heldAs === 'email' ? 'e-mail' : 'username'}.`,
      },
    ]);
  }
}

export interface NewUserInput {
  username?: string;
  email?: string;
  name?: string;
  password?: string;
  rootRole: number | string;
}

/** `within`, when given, runs in the same transaction once the user exists (e.g. to record how they joined). */
export async function createUser(
  ctx: AppContext,
  actor: Actor,
  input: NewUserInput,
  within?: (tx: Transaction, user: User) => Promise<void>,
) {
  const username = input.username?.trim() || null;
  const email = input.email?.trim() || null;
  if (!username && !email) {
    throw new ValidationError('A user needs a username or an email (or both).', [
      { path: 'username', message: 'Give a username or an email.' },
    ]);
  }
  checkEmail(email);
  if (input.password !== undefined) assertStrongPassword(input.password);
  const passwordHash =
    input.password !== undefined ? await hashPassword(input.password, ctx.config.passwordHashCost) : null;

  const create = () =>
    ctx.db.transaction(async (tx) => {
      const role = await resolveRootRole(tx, input.rootRole);
      await assertLoginsFree(tx, username, email);
      const user = await insertUser(tx, {
        username,
        email,
        name: input.name ?? null,
        rootRoleId: role.id,
        passwordHash,
      });
      recordEvent(tx, actor, { type: 'user-created', data: eventData(user) });
      if (within) await within(tx, user);
      return user;
    });
  return checkAgainOnDuplicate(create, () => assertLoginsFree(ctx.db, username, email));
}

export async function getUser(db: Queryable, id: number, options?: ReadOptions): Promise<User> {
  const user = await findUser(db, id, options);
  if (!user) throw new NotFoundError(`There is no user with id ${id}.`);
  return user;
}

/** What a signed-in user reads about themselves on every page: from memory once read. */
export async function ownProfile(ctx: AppContext, userId: number) {
  const profile = await ctx.identityCache.profile(userId, async () => {
    const user = await findUser(ctx.db, userId);
    return user && { user, feedback: await listFeedback(ctx.db, userId) };
  });
  if (!profile) throw new AuthenticationRequired('The user of these credentials no longer exists.');
  return profile;
}

export async function listUsersWithRoles(db: Queryable) {
  const [users, rootRoles] = await Promise.all([listUsers(db), listRootRoles(db)]);
  return { users: users.map(describeUser), rootRoles };
}

export async function changeUser(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: { name?: string | null; email?: string; rootRole?: number | string },
) {
  const email = input.email?.trim();
  if (email !== undefined) checkEmail(email);
  const update = async (tx: Transaction) => {
    const before = await getUser(tx, id, { lock: 'update' });
    const rootRoleId =
      input.rootRole !== undefined ? (await resolveRootRole(tx, input.rootRole)).id : before.rootRole;
    if (email !== undefined) await assertLoginsFree(tx, null, email, id);
    const after = (await updateUser(tx, id, {
      email: email ?? before.email,
      name: input.name !== undefined ? input.name : before.name,
      rootRoleId,
    }))!;
    recordEvent(tx, actor, {
      type: 'user-updated',
      data: eventData(after),
      preData: eventData(before),
    });
    return after;
  };
  // A new root role may take Admin away: then the last Admin must stay one.
  const change = () =>
    ctx.db.transaction((tx) =>
      input.rootRole === undefined
        ? update(tx)
        : keepingAnAdmin(tx, `Changing the root role of user ${id}`, () => update(tx)),
    );
  return checkAgainOnDuplicate(change, async () => {
    if (email !== undefined) await assertLoginsFree(ctx.db, null, email, id);
  });
}

/** Deletes a user inside the caller's transaction, with its `user-deleted` event; 404 if there is none. */
export async function deleteUserIn(tx: Transaction, actor: Actor, id: number): Promise<void> {
  const user = await getUser(tx, id, { lock: 'exclusive' });
  await deleteUser(tx, id);
  recordEvent(tx, actor, { type: 'user-deleted', preData: eventData(user) });
}

export async function removeUser(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction((tx) =>
    keepingAnAdmin(tx, `Deleting user ${id}`, () => deleteUserIn(tx, actor, id)),
  );
}

/** The first admin, made only while there are no users at all. */
export async function ensureDefaultAdmin(ctx: AppContext, actor: Actor): Promise<void> {
  if ((await countUsers(ctx.db)) > 0) return;
  const { username, password } = ctx.config.defaultAdmin;
  const passwordHash = await hashPassword(password, ctx.config.passwordHashCost);
  await ctx.db.transaction(async (tx) => {
    // Replicas starting together: only the first one creates the admin.
    await takeAdvisoryLock(tx, 'defaultAdmin');
    if ((await countUsers(tx)) > 0) return;
    const user = await insertUser(tx, { username, email: null, name: null, rootRoleId: 1, passwordHash });
    recordEvent(tx, actor, { type: 'user-created', data: eventData(user) });
  });
}

/** Whether someone signs in with that username (or email) and password. One password hash. */
export async function signsInWith(db: Queryable, login: string, password: string): Promise<boolean> {
  const user = await findUserByLogin(db, login);
  return user !== null && (await verifyPassword(password, user.passwordHash));
}

/** What `/api/admin/user` answers: the caller (a user, or an API token as a service account) and their permissions. */
export async function currentUser(ctx: AppContext, identity: Identity) {
  if (identity.kind === 'token') {
    return {
      user: {
        name: identity.name,
        email: null,
        username: identity.name,
        imageUrl: null,
        rootRole: null,
        loginAttempts: 0,
        seenAt: null,
        createdAt: null,
        isAPI: true,
        accountType: 'Service Account',
        emailSent: false,
      },
      permissions: [{ permission: 'ADMIN' }],
      feedback: [],
      splash: {},
    };
  }
  const { user, feedback } = await ownProfile(ctx, identity.userId);
  return {
    user: describeUser(user),
    permissions: identity.grants.map((g) => ({
      permission: g.permission,
      ...(g.project !== null ? { project: g.project } : {}),
      ...(g.environment ? { environment: g.environment } : {}),
    })),
    feedback,
    splash: {},
  };
}
