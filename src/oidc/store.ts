import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface PendingLogin {
  nonce: string;
  codeVerifier: string;
  redirect: string;
  expired: boolean;
  used: boolean;
}

export async function insertPendingLogin(
  db: Queryable,
  login: { stateHash: string; nonce: string; codeVerifier: string; redirect: string; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO oidc_logins (state_hash, nonce, code_verifier, redirect, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [login.stateHash, login.nonce, login.codeVerifier, login.redirect, login.ttlSeconds],
  );
}

/** The sign-in begun with this state (found by its hash), or null; locked, it is taken once. */
export async function findPendingLogin(
  db: Queryable,
  stateHash: string,
  { lock }: ReadOptions = {},
): Promise<PendingLogin | null> {
  const { rows } = await db.query<{
    nonce: string;
    code_verifier: string;
    redirect: string;
    expired: boolean;
    used: boolean;
  }>(
    withRowLock(
      `SELECT nonce, code_verifier, redirect, expires_at <= now() AS expired, used_at IS NOT NULL AS used
         FROM oidc_logins WHERE state_hash = $1`,
      lock,
    ),
    [stateHash],
  );
  const r = rows[0];
  return r
    ? {
        nonce: r.nonce,
        codeVerifier: r.code_verifier,
        redirect: r.redirect,
        expired: r.expired,
        used: r.used,
      }
    : null;
}

export async function markLoginUsed(db: Queryable, stateHash: string): Promise<void> {
  await db.query('UPDATE oidc_logins SET used_at = now() WHERE state_hash = $1', [stateHash]);
}

/** Retention: sign-ins that expired before `before`, used or not. */
export async function deleteSpentLogins(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM oidc_logins WHERE expires_at < $1', [before]);
  return rowCount;
}

/** The user the provider's person (issuer, subject) was bound to, or null. */
export async function findBoundUserId(
  db: Queryable,
  issuer: string,
  subject: string,
): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    'SELECT user_id FROM oidc_subjects WHERE issuer = $1 AND subject = $2',
    [issuer, subject],
  );
  return rows[0]?.user_id ?? null;
}

/**
 * Binds the person to the user unless either is bound already (then nothing changes); answers
 * the user the person is bound to now (null: the user is bound to another person of the issuer).
 */
export async function bindSubject(
  db: Queryable,
  binding: { issuer: string; subject: string; userId: number },
): Promise<number | null> {
  await db.query(
    `INSERT INTO oidc_subjects (issuer, subject, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [binding.issuer, binding.subject, binding.userId],
  );
  return findBoundUserId(db, binding.issuer, binding.subject);
}
