import type { Queryable } from '../db/database.js';
import { hashSecret, randomUrlSafe } from '../secrets.js';

export const SESSION_COOKIE = 'unleash-session';
export const SESSION_TTL_SECONDS = 48 * 60 * 60;

/** Starts a session and returns its id, which only the browser keeps (we store its hash). */
export async function createSession(db: Queryable, userId: number): Promise<string> {
  const id = randomUrlSafe(32);
  await db.query(
    `INSERT INTO sessions (id_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
    [hashSecret(id), userId, SESSION_TTL_SECONDS],
  );
  return id;
}

export async function findSessionUserId(db: Queryable, sessionId: string): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    'SELECT user_id FROM sessions WHERE id_hash = $1 AND expires_at > now()',
    [hashSecret(sessionId)],
  );
  return rows[0]?.user_id ?? null;
}

export async function endSession(db: Queryable, sessionHash: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE id_hash = $1', [sessionHash]);
}

export async function endSessionsOf(db: Queryable, userId: number): Promise<void> {
  await db.query('DELETE FROM sessions WHERE user_id = $1 OR expires_at < now()', [userId]);
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
