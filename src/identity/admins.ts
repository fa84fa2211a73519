import { takeAdvisoryLock } from '../db/advisory-locks.js';
import type { Transaction } from '../db/database.js';
import { NameExistsError } from '../http/errors.js';
import { type AdminUser, findAdminUsers } from './grant-store.js';

function lastAdminsRefusal(action: string, admins: AdminUser[]): NameExistsError {
  const names = admins.map((a) => `"${a.login}"`).join(', ');
  const who = admins.length === 1 ? `${names} is the last Admin` : `${names} are the last Admins`;
  return new NameExistsError(
    `${action} would leave no user who can administer this Flagpole: ${who}. ` +
      'Make another user an Admin first (give them the Admin root role, or add them to a group that has it); ' +
      'admin API tokens do not count.',
  );
}

/** The users who are Admins now, directly or through a group. */
export function readAdminUsers(tx: Transaction): Promise<AdminUser[]> {
  return findAdminUsers(tx);
}

/**
 * Takes the lock every change that may take Admin away from a user holds (demoting or deleting a
 * user, a group's members or root role, a root role's permissions): such changes run one after
 * another, each deciding on what the one before it committed. Without it, two requests demoting
 * the last two Admins at once would each see the other one still an Admin, and both succeed.
 * It must be the transaction's first lock, so that no transaction holding it waits for a row
 * another one holds while waiting for it.
 */
export async function lockAdmins(tx: Transaction): Promise<void> {
  await takeAdvisoryLock(tx, 'admins');
}

/**
 * Runs `change` under the Admins' lock (taken first) and refuses it (409, the transaction rolled
 * back) when it leaves no Admin user where there was one. `action` names the change in the
 * message, e.g. `Deleting user 7`.
 */
export async function keepingAnAdmin<T>(
  tx: Transaction,
  action: string,
  change: () => Promise<T>,
): Promise<T> {
  await lockAdmins(tx);
  const before = await findAdminUsers(tx);
  const result = await change();
  if (before.length > 0 && (await findAdminUsers(tx)).length === 0) throw lastAdminsRefusal(action, before);
  return result;
}
