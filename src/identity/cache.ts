import { LRUCache } from 'lru-cache';
import type { TokenIdentity } from '../http/identity.js';
import type { Principal } from './grants.js';

const MAX_ENTRIES = 10_000;

/** A credential as last read, and until when it holds. */
interface Entry<T> {
  value: T;
  /** ms since the epoch; Infinity when it never expires. */
  expiresAt: number;
}

/**
 * What keys resolved to, in two bounded LRUs: keys that named something, and keys that named
 * nothing. Remembering the misses lets a client repeating a bad secret cost no queries; keeping
 * them apart means a flood of random bad secrets (each new one still costs its one query) pushes
 * out only other misses, never the credentials in use.
 */
class Resolved<K extends {}, T> {
  readonly known = new LRUCache<K, Entry<T>>({ max: MAX_ENTRIES });
  readonly unknown = new LRUCache<K, true>({ max: MAX_ENTRIES });

  clear(): void {
    this.known.clear();
    this.unknown.clear();
  }
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
  private readonly credentials = new Resolved<string, TokenEntry>();
  private readonly sessions = new Resolved<string, number>();
  private readonly principals = new Resolved<number, Principal>();
  private readonly profiles = new Resolved<number, object>();

  clear(): void {
    this.generation++;
    this.credentials.clear();
    this.sessions.clear();
    this.principals.clear();
    this.profiles.clear();
  }

  /** Forgets only what users read about themselves; credentials and grants stay resolved. */
  clearProfiles(): void {
    this.generation++;
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
   * A change of what it shows is an identity change (profile, roles) or, when it changes nothing
   * else (feedback, a sign-in), a profiles change, which empties only these.
   */
  profile<T extends object>(userId: number, load: () => Promise<T | null>): Promise<T | null> {
    return this.through(this.profiles, userId, async () => {
      const profile = await load();
      return profile ? { value: profile, expiresAt: null } : null;
    }) as Promise<T | null>;
  }

  private async through<K extends {}, T>(
    cache: Resolved<K, T>,
    key: K,
    load: () => Promise<{ value: T; expiresAt: Date | null } | null>,
  ): Promise<T | null> {
    let entry = cache.known.get(key);
    if (!entry) {
      if (cache.unknown.get(key)) return null;
      const generation = this.generation;
      const loaded = await load();
      if (!loaded) {
        if (generation === this.generation) cache.unknown.set(key, true);
        return null;
      }
      entry = { value: loaded.value, expiresAt: expiry(loaded.expiresAt) };
      if (generation === this.generation) cache.known.set(key, entry);
    }
    return entry.expiresAt > Date.now() ? entry.value : null;
  }
}
