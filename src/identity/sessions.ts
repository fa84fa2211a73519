import type { Queryable, Transaction } from '../db/database.js';
import { hashSecret, randomUrlSafe } from '../secrets.js';
import { markChanged } from '../sync/changes.js';

export const SESSION_COOKIE = 'unleash-session';
export const SESSION_TTL_SECONDS = 48 * 60 * 60;

/**
 * Starts a session and returns its id, which only the browser keeps (we store its hash). A session
 * started through OpenID Connect keeps the provider's ID token, to sign out there as well.
 */
export async function createSession(
  db: Queryable,
  userId: number,
  idToken: string | null = null,
): Promise<string> {
  const id = randomUrlSafe(32);
  await db.query(
    `INSERT INTO sessions (id_hash, user_id, expires_at, id_token)
     VALUES ($1, $2, now() + make_interval(secs => $3), $4)`,
    [hashSecret(id), userId, SESSION_TTL_SECONDS, idToken],
  );
  return id;
}

/** The user a live session (by the hash of its id) belongs to, and when it expires. */
export async function findSession(
  db: Queryable,
  idHash: string,
): Promise<{ userId: number; expiresAt: Date } | null> {
  const { rows } = await db.query<{ user_id: number; expires_at: Date }>(
    'SELECT user_id, expires_at FROM sessions WHERE id_hash = $1 AND expires_at > now()',
    [idHash],
  );
  return rows[0] ? { userId: rows[0].user_id, expiresAt: rows[0].expires_at } : null;
}

/**
 * Ends the session; every process stops accepting it at once (the identity caches follow). Answers
 * the ID token it was started with (null for a password sign-in or a session that was not there).
 */
export async function endSession(tx: Transaction, sessionHash: string): Promise<{ idToken: string | null }> {
  const { rows } = await tx.query<{ id_token: string | null }>(
    'DELETE FROM sessions WHERE id_hash = $1 RETURNING id_token',
    [sessionHash],
  );
  markChanged(tx, { scopes: ['identity'] });
  return { idToken: rows[0]?.id_token ?? null };
}

export async function endSessionsOf(tx: Transaction, userId: number): Promise<void> {
  await tx.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
  markChanged(tx, { scopes: ['identity'] });
}

/** Retention: sessions that expired a while ago. */
export async function deleteExpiredSessions(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM sessions WHERE expires_at < $1', [before]);
  return rowCount;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!(name in cookies)) {
      try {
        cookies[name] = decodeURIComponent(value);
      } catch {
        cookies[name] = value;
      }
    }
  }
  return cookies;
}

export function sessionCookie(id: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/; Max-Age=${SESSION_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
