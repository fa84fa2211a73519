import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface User {
  id: number;
  username: string | null;
  email: string | null;
  name: string | null;
  imageUrl: string | null;
  rootRole: number;
  loginAttempts: number;
  seenAt: Date | null;
  createdAt: Date;
}

export interface UserWithPassword extends User {
  passwordHash: string | null;
}

interface UserRecord {
  id: number;
  username: string | null;
  email: string | null;
  name: string | null;
  image_url: string | null;
  root_role_id: number;
  login_attempts: number;
  seen_at: Date | null;
  created_at: Date;
  password_hash: string | null;
}

const COLUMNS = 'id, username, email, name, image_url, root_role_id, login_attempts, seen_at, created_at';

function toUser(r: UserRecord): User {
  return {
    id: r.id,
    username: r.username,
    email: r.email,
    name: r.name,
    imageUrl: r.image_url,
    rootRole: r.root_role_id,
    loginAttempts: r.login_attempts,
    seenAt: r.seen_at,
    createdAt: r.created_at,
  };
}

export interface NewUser {
  username: string | null;
  email: string | null;
  name: string | null;
  rootRoleId: number;
  passwordHash: string | null;
}

export async function insertUser(db: Queryable, u: NewUser): Promise<User> {
  const { rows } = await db.query<UserRecord>(
    `INSERT INTO users (username, email, name, root_role_id, password_hash)
     VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [u.username, u.email, u.name, u.rootRoleId, u.passwordHash],
  );
  return toUser(rows[0]!);
}

export async function countUsers(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  return rows[0]!.n;
}

export async function findUser(db: Queryable, id: number, { lock }: ReadOptions = {}): Promise<User | null> {
  const { rows } = await db.query<UserRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM users WHERE id = $1`, lock),
    [id],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/** By username or email, case-insensitively: people sign in with either. */
export async function findUserByLogin(db: Queryable, login: string): Promise<UserWithPassword | null> {
  const { rows } = await db.query<UserRecord>(
    `SELECT ${COLUMNS}, password_hash FROM users
      WHERE lower(username) = lower($1) OR lower(email) = lower($1)
      ORDER BY (lower(username) = lower($1)) DESC NULLS LAST LIMIT 1`,
    [login],
  );
  const r = rows[0];
  return r ? { ...toUser(r), passwordHash: r.password_hash } : null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<User | null> {
  const { rows } = await db.query<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`, [
    email,
  ]);
  return rows[0] ? toUser(rows[0]) : null;
}

/** A login asked for (`field`) that another user already has, as their username or e-mail (`heldAs`). */
export interface LoginClash {
  field: 'username' | 'email';
  heldAs: 'username' | 'email';
}

/**
 * Where users other than `exceptId` already have this username or e-mail, case-insensitively, in
 * either column: sign-in matches what is typed against both.
 */
export async function findLoginClashes(
  db: Queryable,
  username: string | null,
  email: string | null,
  exceptId = 0,
): Promise<LoginClash[]> {
  const { rows } = await db.query<{ uu: boolean; ue: boolean; eu: boolean; ee: boolean }>(
    `SELECT coalesce(bool_or(lower(username) = lower($1)), false) AS uu,
            coalesce(bool_or(lower(email) = lower($1)), false) AS ue,
            coalesce(bool_or(lower(username) = lower($2)), false) AS eu,
            coalesce(bool_or(lower(email) = lower($2)), false) AS ee
       FROM users
      WHERE id <> $3
        AND (lower(username) IN (lower($1), lower($2)) OR lower(email) IN (lower($1), lower($2)))`,
    [username, email, exceptId],
  );
  const r = rows[0]!;
  const clashes: LoginClash[] = [];
  if (r.uu) clashes.push({ field: 'username', heldAs: 'username' });
  if (r.ue) clashes.push({ field: 'username', heldAs: 'email' });
  if (r.eu) clashes.push({ field: 'email', heldAs: 'username' });
  if (r.ee) clashes.push({ field: 'email', heldAs: 'email' });
  return clashes;
}

export async function listUsers(db: Queryable): Promise<User[]> {
  const { rows } = await db.query<UserRecord>(`SELECT ${COLUMNS} FROM users ORDER BY id`);
  return rows.map(toUser);
}

export async function updateUser(
  db: Queryable,
  id: number,
  u: { email: string | null; name: string | null; rootRoleId: number },
): Promise<User | null> {
  const { rows } = await db.query<UserRecord>(
    `UPDATE users SET email = $2, name = $3, root_role_id = $4 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, u.email, u.name, u.rootRoleId],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export async function deleteUser(db: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM users WHERE id = $1', [id]);
  return rowCount > 0;
}

/** The current hash and the previous ones, newest first. */
export async function recentPasswordHashes(db: Queryable, userId: number, count: number): Promise<string[]> {
  const { rows } = await db.query<{ password_hash: string }>(
    `SELECT password_hash FROM (
       SELECT password_hash, 0 AS o, 0 AS id FROM users WHERE id = $1 AND password_hash IS NOT NULL
       UNION ALL
       SELECT password_hash, 1, id FROM user_password_history WHERE user_id = $1
     ) h ORDER BY o, id DESC LIMIT $2`,
    [userId, count],
  );
  return rows.map((r) => r.password_hash);
}

export async function setPasswordHash(db: Queryable, userId: number, hash: string): Promise<void> {
  await db.query(
    `INSERT INTO user_password_history (user_id, password_hash)
       SELECT id, password_hash FROM users WHERE id = $1 AND password_hash IS NOT NULL`,
    [userId],
  );
  await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
  // Only the last few are ever compared; older ones are of no use.
  await db.query(
    `DELETE FROM user_password_history WHERE user_id = $1 AND id NOT IN (
       SELECT id FROM user_password_history WHERE user_id = $1 ORDER BY id DESC LIMIT 5)`,
    [userId],
  );
}

export async function recordLoginSuccess(db: Queryable, userId: number): Promise<void> {
  await db.query('UPDATE users SET login_attempts = 0, seen_at = now() WHERE id = $1', [userId]);
}

export async function recordLoginFailure(db: Queryable, userId: number): Promise<void> {
  await db.query('UPDATE users SET login_attempts = login_attempts + 1 WHERE id = $1', [userId]);
}

/** The users of those ids that exist, by id. */
export async function findUsers(db: Queryable, ids: readonly number[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<UserRecord>(
    `SELECT ${COLUMNS} FROM users WHERE id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  return rows.map(toUser);
}

/** The ids among `ids` that are users. */
export async function existingUserIds(db: Queryable, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE id = ANY($1::int[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

/** `%` and `_` in what someone searches for are themselves, not wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/** Users whose name, username or email contains `text`, case-insensitively, by id. */
export async function searchUsers(db: Queryable, text: string, limit: number): Promise<User[]> {
  const { rows } = await db.query<UserRecord>(
    `SELECT ${COLUMNS} FROM users
      WHERE name ILIKE $1 OR username ILIKE $1 OR email ILIKE $1
      ORDER BY id LIMIT $2`,
    [likePattern(text), limit],
  );
  return rows.map(toUser);
}

export async function hasPassword(db: Queryable, id: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM users WHERE id = $1 AND password_hash IS NOT NULL', [id]);
  return rows.length > 0;
}

/** How many users with one of these root roles have a password, and how many have none. */
export async function countWithRoles(
  db: Queryable,
  roleIds: number[],
): Promise<{ password: number; noPassword: number }> {
  const { rows } = await db.query<{ password: number; no_password: number }>(
    `SELECT count(*) FILTER (WHERE password_hash IS NOT NULL)::int AS password,
            count(*) FILTER (WHERE password_hash IS NULL)::int AS no_password
       FROM users WHERE root_role_id = ANY($1::int[])`,
    [roleIds],
  );
  return { password: rows[0]!.password, noPassword: rows[0]!.no_password };
}

/**
 * Users who have not signed in for `days` (never signed in: created that long ago), by id;
 * among `ids` only, when given. With a lock, a sign-in waits until the caller is done.
 */
export async function findUnseenUsers(
  db: Queryable,
  days: number,
  { ids, lock }: ReadOptions & { ids?: number[] } = {},
): Promise<User[]> {
  const { rows } = await db.query<UserRecord>(
    withRowLock(
      `SELECT ${COLUMNS} FROM users
        WHERE coalesce(seen_at, created_at) < now() - make_interval(days => $1)
          AND ($2::int[] IS NULL OR id = ANY($2::int[]))
        ORDER BY id`,
      lock,
    ),
    [days, ids ?? null],
  );
  return rows.map(toUser);
}
