import type { Database } from '../db/database.js';
import type { Identity, UserIdentity } from '../http/identity.js';
import type { IdentityCache } from '../identity/cache.js';
import { findPrincipal } from '../identity/grants.js';
import { findSession, parseCookies, SESSION_COOKIE } from '../identity/sessions.js';
import { hashSecret } from '../secrets.js';
import { isPatSecret, resolveApiToken, resolvePat } from '../tokens/credentials.js';

export interface Credentials {
  authorization?: string;
  cookie?: string;
}

/**
 * The credentials a request carries. OpenFeature's remote evaluation lets a provider send its
 * key as `X-API-Key` instead of `Authorization`; only its paths read that header.
 */
export function credentialsOf(request: {
  url: string;
  headers: { authorization?: string; cookie?: string; 'x-api-key'?: string | string[] };
}): Credentials {
  const { authorization, cookie } = request.headers;
  const apiKey = request.headers['x-api-key'];
  if (authorization === undefined && typeof apiKey === 'string' && request.url.startsWith('/ofrep/')) {
    return { authorization: apiKey };
  }
  return { authorization, cookie };
}

async function userIdentity(
  db: Database,
  cache: IdentityCache,
  userId: number,
  via: UserIdentity['via'],
  sessionHash?: string,
): Promise<UserIdentity | null> {
  const principal = await cache.principal(userId, () => findPrincipal(db, userId));
  if (!principal) return null;
  return {
    kind: 'user',
    userId,
    name: principal.username ?? principal.email ?? `user-${userId}`,
    rootRoleId: principal.rootRoleId,
    grants: principal.grants,
    privateProjects: principal.privateProjects,
    via,
    sessionHash,
  };
}

/** The user, as work done for them later (a change request they scheduled) acts; null when they are gone. */
export function identityOfUser(
  db: Database,
  cache: IdentityCache,
  userId: number,
): Promise<UserIdentity | null> {
  return userIdentity(db, cache, userId, 'job');
}

/**
 * Who the credentials of a request are: the Authorization header (API token or PAT, `Bearer `
 * optional) first, then the session cookie; null when they name nobody. From memory once seen.
 */
export async function resolveIdentity(
  db: Database,
  cache: IdentityCache,
  credentials: Credentials,
): Promise<Identity | null> {
  const header = credentials.authorization;
  if (header !== undefined) {
    const secret = header.replace(/^Bearer\s+/i, '').trim();
    if (!secret) return null;
    if (isPatSecret(secret)) {
      const userId = await resolvePat(db, cache, secret);
      return userId === null ? null : userIdentity(db, cache, userId, 'pat');
    }
    return resolveApiToken(db, cache, secret);
  }
  const sessionId = parseCookies(credentials.cookie)[SESSION_COOKIE];
  if (!sessionId) return null;
  const sessionHash = hashSecret(sessionId);
  const userId = await cache.session(sessionHash, async () => {
    const session = await findSession(db, sessionHash);
    return session ? { value: session.userId, expiresAt: session.expiresAt } : null;
  });
  return userId === null ? null : userIdentity(db, cache, userId, 'session', sessionHash);
}
