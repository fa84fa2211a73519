import type { AppContext } from '../app-context.js';
import type { Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { endSessionsOf } from '../identity/sessions.js';
import { revokePatsOf } from '../tokens/credentials.js';
import { assertStrongPassword, hashPassword, verifyPassword } from './password.js';
import { getUser } from './service.js';
import { recentPasswordHashes, setPasswordHash } from './store.js';

const REMEMBERED_PASSWORDS = 6; // the current one and the five before it

/** A new password, checked and hashed, and the user's password hashes it was checked against. */
export interface NewPassword {
  userId: number;
  hash: string;
  checkedAgainst: string[];
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The slow part of a password change, before any transaction opens: each comparison with an old
 * password and the new hash is an scrypt run, and an open transaction holds back every other
 * request on the embedded database (on PostgreSQL, a pooled connection). With `oldPassword`, it
 * must match the current one. The user must exist (404), the password be strong and not one of
 * the last ones (400).
 */
export async function prepareNewPassword(
  ctx: AppContext,
  userId: number,
  password: string,
  oldPassword?: string,
): Promise<NewPassword> {
  assertStrongPassword(password);
  await getUser(ctx.db, userId);
  const hashes = await recentPasswordHashes(ctx.db, userId, REMEMBERED_PASSWORDS);
  if (oldPassword !== undefined && hashes[0] && !(await verifyPassword(oldPassword, hashes[0]))) {
    throw new ValidationError('The old password is wrong.', [
      { path: 'oldPassword', message: 'Wrong password.' },
    ]);
  }
  for (const old of hashes) {
    if (await verifyPassword(password, old)) {
      throw new ValidationError(
        'You have used this password before: choose one that is not among your last 5 passwords.',
        [{ path: 'password', message: 'Used before.' }],
      );
    }
  }
  return { userId, hash: await hashPassword(password, ctx.config.passwordHashCost), checkedAgainst: hashes };
}

/**
 * Saves a prepared password inside the caller's transaction, and every session of the user ends
 * (a changed password must lock out whoever knew the old one). The user's row is locked first;
 * if the password changed since it was prepared, the checks were made against the wrong history
 * and the change is refused (409) rather than checked again here, with scrypt, inside the lock.
 */
export async function saveNewPassword(tx: Transaction, actor: Actor, prepared: NewPassword): Promise<void> {
  const user = await getUser(tx, prepared.userId, { lock: 'update' });
  const hashes = await recentPasswordHashes(tx, user.id, REMEMBERED_PASSWORDS);
  if (!sameList(hashes, prepared.checkedAgainst)) {
    throw new NameExistsError(
      'The password of this user was changed by another request at the same time: send yours again.',
    );
  }
  await setPasswordHash(tx, user.id, prepared.hash);
  await endSessionsOf(tx, user.id);
  recordEvent(tx, actor, {
    type: 'user-password-changed',
    data: { id: user.id, username: user.username, email: user.email },
  });
}

/**
 * An Admin sets someone's password: as with a reset link, the password may be known to someone
 * else, so their sessions end and their personal access tokens (perhaps made by whoever knew it)
 * are revoked with it.
 */
export async function setPasswordOf(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  password: string,
): Promise<void> {
  const prepared = await prepareNewPassword(ctx, userId, password);
  await ctx.db.transaction(async (tx) => {
    await saveNewPassword(tx, actor, prepared);
    await revokePatsOf(tx, userId);
  });
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
  const prepared = await prepareNewPassword(ctx, userId, input.password, input.oldPassword ?? '');
  await ctx.db.transaction((tx) => saveNewPassword(tx, actor, prepared));
}
