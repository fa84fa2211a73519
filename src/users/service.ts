import { createHash } from 'node:crypto';
import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { listFeedback } from '../feedback/service.js';
import { AuthenticationRequired, NotFoundError, ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { endSessionsOf } from '../identity/sessions.js';
import { resolveRootRole } from '../roles/service.js';
import { listRootRoles } from '../roles/store.js';
import { assertStrongPassword, hashPassword, verifyPassword } from './password.js';
import {
  countUsers,
  deleteUser,
  findUser,
  insertUser,
  isLoginTaken,
  listUsers,
  recentPasswordHashes,
  setPasswordHash,
  type User,
  updateUser,
} from './store.js';

const REMEMBERED_PASSWORDS = 6; // the current one and the five before it

function gravatar(email: string | null): string | null {
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
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : null;

  return ctx.db.transaction(async (tx) => {
    const role = await resolveRootRole(tx, input.rootRole);
    if (await isLoginTaken(tx, username, email)) {
      throw new ValidationError('A user with that username or email already exists.', [
        { path: username ? 'username' : 'email', message: 'Already taken.' },
      ]);
    }
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
}

export async function getUser(db: Queryable, id: number): Promise<User> {
  const user = await findUser(db, id);
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
  return ctx.db.transaction(async (tx) => {
    const before = await getUser(tx, id);
    const rootRoleId =
      input.rootRole !== undefined ? (await resolveRootRole(tx, input.rootRole)).id : before.rootRole;
    if (email !== undefined && (await isLoginTaken(tx, null, email, id))) {
      throw new ValidationError('Another user already has that email.', [
        { path: 'email', message: 'Already taken.' },
      ]);
    }
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
  });
}

export async function removeUser(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const user = await getUser(tx, id);
    await deleteUser(tx, id);
    recordEvent(tx, actor, { type: 'user-deleted', preData: eventData(user) });
  });
}

/**
 * Sets a new password inside the caller's transaction: strong, not one of the last ones, and every
 * session of the user ends (a changed password must lock out whoever knew the old one).
 */
export async function setUserPassword(
  tx: Transaction,
  actor: Actor,
  userId: number,
  password: string,
): Promise<void> {
  assertStrongPassword(password);
  const user = await getUser(tx, userId);
  for (const old of await recentPasswordHashes(tx, userId, REMEMBERED_PASSWORDS)) {
    if (await verifyPassword(password, old)) {
      throw new ValidationError(
        'You have used this password before: choose one that is not among your last 5 passwords.',
        [{ path: 'password', message: 'Used before.' }],
      );
    }
  }
  await setPasswordHash(tx, userId, await hashPassword(password));
  await endSessionsOf(tx, userId);
  recordEvent(tx, actor, {
    type: 'user-password-changed',
    data: { id: user.id, username: user.username, email: user.email },
  });
}

export async function setPasswordOf(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  password: string,
): Promise<void> {
  await ctx.db.transaction((tx) => setUserPassword(tx, actor, userId, password));
}

export async function changeOwnPassword(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  input: { password: string; confirmPassword: string; oldPassword?: string },
): Promise<void> {
  if (input.password !== input.confirmPassword) {
    throw new ValidationError('`password` and `confirmPassword` differ.', [
      { path: 'confirmPassword', message: 'Must equal password.' },
    ]);
  }
  assertStrongPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    const [current] = await recentPasswordHashes(tx, userId, 1);
    if (current && !(await verifyPassword(input.oldPassword ?? '', current))) {
      throw new ValidationError('The old password is wrong.', [
        { path: 'oldPassword', message: 'Wrong password.' },
      ]);
    }
    await setUserPassword(tx, actor, userId, input.password);
  });
}

/** The first admin, made only while there are no users at all. */
export async function ensureDefaultAdmin(ctx: AppContext, actor: Actor): Promise<void> {
  if ((await countUsers(ctx.db)) > 0) return;
  const { username, password } = ctx.config.defaultAdmin;
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    // Replicas starting together: only the first one creates the admin.
    await tx.query('SELECT pg_advisory_xact_lock(4242002)');
    if ((await countUsers(tx)) > 0) return;
    const user = await insertUser(tx, { username, email: null, name: null, rootRoleId: 1, passwordHash });
    recordEvent(tx, actor, { type: 'user-created', data: eventData(user) });
  });
}
