const MAX_FAILURES = 10;
const WINDOW_MS = 15 * 60 * 1000;
const MAX_ENTRIES = 100_000;

interface Entry {
  failures: number;
  windowEndsAt: number;
}

/**
 * Counts failed logins per (username, address) in fixed windows; after too many, further
 * attempts are refused until the window ends, so a password cannot be guessed at speed.
 * Kept in memory: each replica limits on its own.
 */
export class LoginLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxFailures = MAX_FAILURES,
    private readonly windowMs = WINDOW_MS,
  ) {}

  private key(username: string, address: string): string {
    return `${username.toLowerCase()}\u0000${address}`;
  }

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(username: string, address: string, now = Date.now()): number {
    const entry = this.entries.get(this.key(username, address));
    if (!entry || entry.windowEndsAt <= now || entry.failures < this.maxFailures) return 0;
    return Math.ceil((entry.windowEndsAt - now) / 1000);
  }

  fail(username: string, address: string, now = Date.now()): void {
    const key = this.key(username, address);
    const entry = this.entries.get(key);
    if (!entry || entry.windowEndsAt <= now) {
      if (this.entries.size >= MAX_ENTRIES) this.prune(now);
      this.entries.set(key, { failures: 1, windowEndsAt: now + this.windowMs });
    } else {
      entry.failures++;
    }
  }

  succeed(username: string, address: string): void {
    this.entries.delete(this.key(username, address));
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) if (entry.windowEndsAt <= now) this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
  }
}
