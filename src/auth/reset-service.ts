import type { AppContext } from '../app-context.js';
import { recordEvent } from '../events/service.js';
import { AuthenticationRequired, NoAccessError, NotFoundError } from '../http/errors.js';
import { type Actor, SYSTEM_ACTOR } from '../http/identity.js';
import { findRole } from '../roles/queries.js';
import { hashSecret, randomUrlSafe } from '../secrets.js';
import { revokePatsOf } from '../tokens/credentials.js';
import { assertStrongPassword } from '../users/password.js';
import { prepareNewPassword, saveNewPassword } from '../users/password-service.js';
import { findUserByEmail } from '../users/queries.js';
import { getUser } from '../users/service.js';
import { expireUnusedResetTokens, findResetToken, insertResetToken, markResetTokenUsed } from './store.js';

export { deleteSpentResetTokens } from './store.js';

const RESET_TTL_SECONDS = 24 * 60 * 60;

/** A single-use link valid for 24 hours; it replaces the user's earlier unused links. */
export async function createResetLink(ctx: AppContext, actor: Actor, email: string) {
  return ctx.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email);
    if (!user) throw new NotFoundError(`There is no user with the email "${email}".`);
    await expireUnusedResetTokens(tx, user.id);
    const token = randomUrlSafe(32);
    await insertResetToken(tx, {
      tokenHash: hashSecret(token),
      userId: user.id,
      createdBy: actor.name,
      ttlSeconds: RESET_TTL_SECONDS,
    });
    recordEvent(tx, actor, {
      type: 'user-password-reset-requested',
      data: { id: user.id, username: user.username, email: user.email },
    });
    return { resetPasswordUrl: `${ctx.config.unleashUrl}/reset-password?token=${encodeURIComponent(token)}` };
  });
}

/** Never issued or expired: 401. Already used: 403. */
function checkUsable(token: Awaited<ReturnType<typeof findResetToken>>) {
  if (!token)
    throw new AuthenticationRequired('This reset link is not valid. Ask an administrator for a new one.');
  if (token.usedAt) {
    throw new NoAccessError(
      `This reset link was already used at ${token.usedAt.toISOString()}. Ask for a new one.`,
    );
  }
  if (token.expiresAt.getTime() <= Date.now()) {
    throw new AuthenticationRequired('This reset link has expired. Ask an administrator for a new one.');
  }
  return token;
}

export async function validateResetToken(ctx: AppContext, token: string) {
  const found = checkUsable(await findResetToken(ctx.db, hashSecret(token)));
  const user = await getUser(ctx.db, found.userId);
  const role = (await findRole(ctx.db, user.rootRole))!;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    username: user.username,
    token,
    createdBy: found.createdBy,
    role: { id: role.id, name: role.name, type: role.type, description: role.description },
  };
}

/**
 * E14. The password rules are checked before the token, and nothing is used up unless the
 * whole change succeeds: a refused attempt leaves the link working. The password is compared
 * and hashed before the transaction; inside it the token is read again, locked, so that two
 * requests using one link at once cannot both succeed. A reset is what one does when the
 * password may be known to someone else: their sessions end and their personal access tokens
 * (which may have been made with it) are revoked with it.
 */
export async function resetPassword(ctx: AppContext, token: string, password: string): Promise<void> {
  assertStrongPassword(password);
  const tokenHash = hashSecret(token);
  const { userId } = checkUsable(await findResetToken(ctx.db, tokenHash));
  const prepared = await prepareNewPassword(ctx, userId, password);
  await ctx.db.transaction(async (tx) => {
    checkUsable(await findResetToken(tx, tokenHash, { lock: 'update' }));
    const user = await getUser(tx, userId);
    const actor: Actor = { name: user.username ?? user.email ?? SYSTEM_ACTOR.name, userId: user.id };
    await saveNewPassword(tx, actor, prepared);
    await revokePatsOf(tx, userId);
    await markResetTokenUsed(tx, tokenHash);
  });
}

/**
 * `POST /auth/reset/password-email`: someone says they forgot the password of this address.
 * Flagpole has no mailer, so no link can reach them, and none is made: a link nobody can receive
 * would only cancel one an Admin already gave out, and a link in the log would hand the account to
 * whoever reads the log. The request is recorded instead (event `user-password-reset-requested`,
 * and a line in the log, without a secret), so an Admin can make a link with
 * `POST /api/admin/user-admin/reset-password` and pass it on. Whether the address is known is
 * never told: the caller gets the same answer either way.
 */
export async function requestResetEmail(ctx: AppContext, email: string): Promise<void> {
  const asked = await ctx.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email.trim());
    if (user) {
      recordEvent(tx, SYSTEM_ACTOR, {
        type: 'user-password-reset-requested',
        data: { id: user.id, username: user.username, email: user.email, via: 'password-email' },
      });
    }
    return user;
  });
  // Info, not a warning: anyone may ask, and the event log already holds the request for an Admin.
  if (asked) {
    ctx.log.info(
      { userId: asked.id },
      'A password reset was asked for by e-mail, but Flagpole sends no e-mail: an Admin can make a reset link with POST /api/admin/user-admin/reset-password.',
    );
  }
}
