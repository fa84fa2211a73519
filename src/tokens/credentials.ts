import type { Database, Transaction } from '../db/database.js';
import type { TokenIdentity } from '../http/identity.js';
import type { IdentityCache } from '../identity/cache.js';
import { noteSeen } from '../identity/seen.js';
import { hashSecret, randomHex } from '../secrets.js';
import { markChanged } from '../sync/changes.js';
import {
  type ApiToken,
  deletePatsOf,
  findActiveApiToken,
  findActiveApiTokens,
  findActivePat,
  touchApiToken,
  touchPat,
} from './store.js';

// What the other areas need of API tokens and personal access tokens, whose rows only this area
// writes: a request's credentials resolved, a user's PATs revoked, when they were last used.
export { lastPatUse } from './store.js';

/** How the secret of every personal access token starts. */
const PAT_PREFIX = 'user:';
/** Random bytes in a personal access token, written as twice as many hex digits. */
const PAT_RANDOM_BYTES = 28;
const PAT_FORM = new RegExp(`^${PAT_PREFIX}[0-9a-f]{${PAT_RANDOM_BYTES * 2}}$`);

/** A new personal access token's secret: `user:` and 56 hex digits. */
export function newPatSecret(): string {
  return PAT_PREFIX + randomHex(PAT_RANDOM_BYTES);
}

/**
 * A personal access token by its whole form, not by its `user:` start alone: a project may be
 * called `user`, and its API tokens (`user:development.<hex>`) must not be taken for PATs.
 */
export function isPatSecret(secret: string): boolean {
  return PAT_FORM.test(secret);
}

/** The API token a secret names, as an identity; null when it names none (or expired). */
export function resolveApiToken(
  db: Database,
  cache: IdentityCache,
  secret: string,
): Promise<TokenIdentity | null> {
  return tokenOfHash(db, cache, hashSecret(secret), (hash) => findActiveApiToken(db, hash));
}

async function tokenOfHash(
  db: Database,
  cache: IdentityCache,
  secretHash: string,
  read: (secretHash: string) => Promise<ApiToken | null>,
): Promise<TokenIdentity | null> {
  const found = await cache.credential(secretHash, async () => {
    const token = await read(secretHash);
    if (!token) return null;
    const identity: TokenIdentity = {
      kind: 'token',
      tokenType: token.type,
      tokenId: token.id,
      name: token.tokenName,
      projects: token.projects,
      environment: token.environment,
    };
    return {
      value: { kind: 'api', id: token.id, userId: null, token: identity },
      expiresAt: token.expiresAt,
    };
  });
  if (found?.kind !== 'api' || !found.token) return null;
  const id = found.id;
  noteSeen(db, `api-token:${id}`, (d) => touchApiToken(d, id));
  return found.token;
}

/** Many API tokens at once (an Edge's list): those not resolved before are read in one statement. */
export async function resolveApiTokens(
  db: Database,
  cache: IdentityCache,
  secrets: string[],
): Promise<Map<string, TokenIdentity | null>> {
  // Read a hundred at a time: on the embedded database each statement runs on the event loop.
  const reads = new Map<number, Promise<Map<string, ApiToken>>>();
  const hashes = secrets.map(hashSecret);
  const readFor = (index: number) => async (hash: string) => {
    const chunk = Math.floor(index / 100);
    if (!reads.has(chunk))
      reads.set(chunk, findActiveApiTokens(db, hashes.slice(chunk * 100, chunk * 100 + 100)));
    return (await reads.get(chunk)!).get(hash) ?? null;
  };
  const resolved = new Map<string, TokenIdentity | null>();
  for (const [i, secret] of secrets.entries()) {
    resolved.set(secret, await tokenOfHash(db, cache, hashes[i]!, readFor(i)));
  }
  return resolved;
}

/** The user id a personal access token acts for; null when it names none (or expired). */
export async function resolvePat(db: Database, cache: IdentityCache, secret: string): Promise<number | null> {
  const secretHash = hashSecret(secret);
  const found = await cache.credential(secretHash, async () => {
    const pat = await findActivePat(db, secretHash);
    if (!pat) return null;
    return { value: { kind: 'pat', id: pat.id, userId: pat.userId }, expiresAt: pat.expiresAt };
  });
  if (found?.kind !== 'pat' || found.userId === null) return null;
  const id = found.id;
  noteSeen(db, `pat:${id}`, (d) => touchPat(d, id));
  return found.userId;
}

/** Every personal access token of the user stops working, in every process (the identity caches follow). */
export async function revokePatsOf(tx: Transaction, userId: number): Promise<void> {
  await deletePatsOf(tx, userId);
  markChanged(tx, { scopes: ['identity'] });
}
