import type { Queryable, Transaction } from '../db/database.js';
import { hashSecret, randomUrlSafe } from '../secrets.js';
import { markChanged } from '../sync/changes.js';
import { deleteSession, deleteSessionsOf, insertSession } from './session-store.js';

export { deleteExpiredSessions, findSession } from './session-store.js';

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
  await insertSession(db, hashSecret(id), userId, SESSION_TTL_SECONDS, idToken);
  return id;
}

/**
 * Ends the session; every process stops accepting it at once (the identity caches follow). Answers
 * the ID token it was started with (null for a password sign-in or a session that was not there).
 */
export async function endSession(tx: Transaction, sessionHash: string): Promise<{ idToken: string | null }> {
  const idToken = await deleteSession(tx, sessionHash);
  markChanged(tx, { scopes: ['identity'] });
  return { idToken };
}

export async function endSessionsOf(tx: Transaction, userId: number): Promise<void> {
  await deleteSessionsOf(tx, userId);
  markChanged(tx, { scopes: ['identity'] });
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
