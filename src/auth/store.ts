import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface ResetToken {
  userId: number;
  createdBy: string | null;
  expiresAt: Date;
  usedAt: Date | null;
}

export async function insertResetToken(
  db: Queryable,
  t: { tokenHash: string; userId: number; createdBy: string; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO reset_tokens (token_hash, user_id, created_by, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [t.tokenHash, t.userId, t.createdBy, t.ttlSeconds],
  );
}

/** A newer link replaces the older ones: they expire now. */
export async function expireUnusedResetTokens(db: Queryable, userId: number): Promise<void> {
  await db.query(
    'UPDATE reset_tokens SET expires_at = now() WHERE user_id = $1 AND used_at IS NULL AND expires_at > now()',
    [userId],
  );
}

/** Locked, two requests using one token at once cannot both succeed. */
export async function findResetToken(
  db: Queryable,
  tokenHash: string,
  { lock }: ReadOptions = {},
): Promise<ResetToken | null> {
  const { rows } = await db.query<{
    user_id: number;
    created_by: string | null;
    expires_at: Date;
    used_at: Date | null;
  }>(
    withRowLock(
      'SELECT user_id, created_by, expires_at, used_at FROM reset_tokens WHERE token_hash = $1',
      lock,
    ),
    [tokenHash],
  );
  const r = rows[0];
  return r
    ? { userId: r.user_id, createdBy: r.created_by, expiresAt: r.expires_at, usedAt: r.used_at }
    : null;
}

export async function markResetTokenUsed(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('UPDATE reset_tokens SET used_at = now() WHERE token_hash = $1', [tokenHash]);
}

/** Retention: reset tokens that expired, or were used, before `before`. */
export async function deleteSpentResetTokens(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM reset_tokens WHERE expires_at < $1 OR used_at < $1', [
    before,
  ]);
  return rowCount;
}
