import type { TokenIdentity } from '../http/identity.js';

const MAX_ENTRIES = 10_000;

interface Entry {
  identity: TokenIdentity | null;
  expiresAt: number;
}

/**
 * API tokens resolved before, so SDK requests (thousands a second) need no SQL. Emptied whenever
 * the configuration revision changes — creating, changing or deleting a token writes an audit
 * event — so a new token works and a deleted one stops working within the revision's delay.
 * Unknown secrets are remembered too, so a flood of bad tokens does not become a flood of queries.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  get(secretHash: string, now = Date.now()): TokenIdentity | null | undefined {
    const entry = this.entries.get(secretHash);
    if (!entry) return undefined;
    if (entry.identity && entry.expiresAt <= now) {
      this.entries.delete(secretHash);
      return null;
    }
    return entry.identity;
  }

  set(secretHash: string, identity: TokenIdentity | null, expiresAt: Date | null): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(secretHash, {
      identity,
      expiresAt: expiresAt ? expiresAt.getTime() : Number.POSITIVE_INFINITY,
    });
  }

  clear(): void {
    this.entries.clear();
  }
}
