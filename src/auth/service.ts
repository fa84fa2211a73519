import type { AppContext } from '../app-context.js';
import { AuthenticationRequired, NoAccessError, RateLimitError } from '../http/errors.js';
import { createSession } from '../identity/sessions.js';
import { isPasswordSignInOff } from '../settings/service.js';
import { markChanged } from '../sync/changes.js';
import { hashPassword, verifyPassword } from '../users/password.js';
import { findUser, findUserByLogin, type User } from '../users/queries.js';
import { recordLoginFailure, recordLoginSuccess } from '../users/writes.js';
import type { LoginLimiter } from './login-limiter.js';

// Compared against when the user does not exist, so a wrong username takes as long as a wrong
// password: made with the cost real hashes are made with.
const decoys = new Map<number, Promise<string>>();
function decoyHash(cost: number): Promise<string> {
  let decoy = decoys.get(cost);
  if (!decoy) {
    decoy = hashPassword('decoy password that never matches', cost);
    decoys.set(cost, decoy);
  }
  return decoy;
}

export async function login(
  ctx: AppContext,
  limiter: LoginLimiter,
  input: { username: string; password: string; address: string },
): Promise<{ user: User; sessionId: string }> {
  const { username, password, address } = input;
  if (await isPasswordSignInOff(ctx.db)) {
    throw new NoAccessError(
      'Signing in with a password is turned off on this Flagpole: sign in with OpenID Connect (/auth/oidc/login). ' +
        'API tokens and personal access tokens still work; an Admin can turn password sign-in back on.',
    );
  }
  const found = await findUserByLogin(ctx.db, username);
  // A user is counted once, whether named by username or by email; a name nobody has, as itself.
  const who = found ? `id:${found.id}` : `name:${username}`;
  // Counted as failed before the password is checked, so attempts sent at once meet the limit too.
  const begun = limiter.begin(who, address);
  if ('wait' in begun) {
    const { wait } = begun;
    throw new RateLimitError(`Too many failed logins for "${username}": try again in ${wait} seconds.`, wait);
  }
  const ok = await verifyPassword(
    password,
    found ? found.passwordHash : await decoyHash(ctx.config.passwordHashCost),
  );
  if (!found || !ok) {
    if (found) await recordLoginFailure(ctx.db, found.id);
    throw new AuthenticationRequired('Wrong username or password.');
  }
  limiter.succeed(begun.attempt);
  const sessionId = await ctx.db.transaction(async (tx) => {
    await recordLoginSuccess(tx, found.id);
    // The user's cached profile shows when they last signed in; their credentials are as they were.
    markChanged(tx, { scopes: ['profiles'] });
    return createSession(tx, found.id);
  });
  const user = (await findUser(ctx.db, found.id))!;
  return { user, sessionId };
}
