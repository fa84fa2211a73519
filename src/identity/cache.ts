import { LRUCache } from 'lru-cache';
import type { TokenIdentity } from '../http/identity.js';
import type { Principal } from './grants.js';

const MAX_ENTRIES = 10_000;

/** A credential as last read: null when it named nothing (so a flood of bad secrets costs no queries). */
interface Entry<T> {
  value: T | null;
  /** ms since the epoch; Infinity when it never expires. */
  expiresAt: number;
}

export interface TokenEntry {
  kind: 'api' | 'pat';
  /** The API token's id, or the PAT's id. */
  id: number;
  /** The user a PAT acts for. */
  userId: number | null;
  /** An API token's identity. */
  token?: TokenIdentity;
}

function expiry(at: Date | null | undefined): number {
  return at ? at.getTime() : Number.POSITIVE_INFINITY;
}

/**
 * Credentials and grants resolved before, so an authenticated request needs no SQL: API tokens
 * and PATs by the hash of their secret, sessions by the hash of their id, each user's grants by id.
 * Bounded (least recently used entries go first, never all at once) and emptied whenever the
 * identity part of the configuration changes — a revoked token, a deleted user or a changed grant
 * counts from the next request. A read that started before such a change is not stored after it.
 */
export class IdentityCache {
  private generation = 0;
  private readonly credentials = new LRUCache<string, Entry<TokenEntry>>({ max: MAX_ENTRIES });
  private readonly sessions = new LRUCache<string, Entry<number>>({ max: MAX_ENTRIES });
  private readonly principals = new LRUCache<number, Entry<Principal>>({ max: MAX_ENTRIES });
  private readonly profiles = new LRUCache<number, Entry<object>>({ max: MAX_ENTRIES });

  clear(): void {
    this.generation++;
    this.credentials.clear();
    this.sessions.clear();
    this.principals.clear();
    this.profiles.clear();
  }

  credential(secretHash: string, load: () => Promise<{ value: TokenEntry; expiresAt: Date | null } | null>) {
    return this.through(this.credentials, secretHash, load);
  }

  session(idHash: string, load: () => Promise<{ value: number; expiresAt: Date } | null>) {
    return this.through(this.sessions, idHash, load);
  }

  principal(userId: number, load: () => Promise<Principal | null>) {
    return this.through(this.principals, userId, async () => {
      const principal = await load();
      return principal ? { value: principal, expiresAt: null } : null;
    });
  }

  /**
   * What a signed-in user reads about themselves on every page (GET /api/admin/user), by user id.
   * Anything it shows that changes (profile, roles, feedback, a sign-in) is an identity change.
   */
  profile<T extends object>(userId: number, load: () => Promise<T | null>): Promise<T | null> {
    return this.through(this.profiles, userId, async () => {
      const profile = await load();
      return profile ? { value: profile, expiresAt: null } : null;
    }) as Promise<T | null>;
  }

  private async through<K extends {}, T>(
    cache: LRUCache<K, Entry<T>>,
    key: K,
    load: () => Promise<{ value: T; expiresAt: Date | null } | null>,
  ): Promise<T | null> {
    const now = Date.now();
    let entry = cache.get(key);
    if (!entry) {
      const generation = this.generation;
      const loaded = await load();
      entry = loaded
        ? { value: loaded.value, expiresAt: expiry(loaded.expiresAt) }
        : { value: null, expiresAt: Infinity };
      if (generation === this.generation) cache.set(key, entry);
    }
    return entry.expiresAt > now ? entry.value : null;
  }
}
