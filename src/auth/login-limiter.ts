import { addressKey, WindowCounter, type WindowLimit } from '../http/rate-limit.js';

const WINDOW_MS = 15 * 60 * 1000;
const MAX_FAILURES_PER_ADDRESS = 10;
/**
 * The per-user limit is five times the per-address one (50): guessing from many addresses is
 * slowed down to 50 tries per quarter hour, while locking a user out takes failures from at least
 * five addresses (or IPv6 /64 networks), not one script.
 */
const PER_USER_FACTOR = 5;

/** An attempt counted before its password was checked: what `succeed` needs to take it back. */
export interface LoginAttempt {
  user: string;
  address: string;
  pairWindowEnd: number;
  userWindowEnd: number;
}

/**
 * Counts failed logins in fixed windows, twice: per (user, client address) and per user whatever
 * the address. After too many of either, further attempts are refused until the window ends, so
 * a password can be guessed neither at speed from one address nor by spreading guesses over many.
 *
 * An attempt is counted as a failure when it begins, before its password is checked (which takes
 * a while: scrypt), and given back if it succeeds. Counting only after the check let any number of
 * attempts sent at once pass the limit together, since none had failed yet when each was let in.
 * A success gives back its own count and clears its (user, address) count; the per-user count is
 * what holds back a guesser spread over many addresses, and the owner signing in meanwhile must
 * not reset it. Kept in memory, bounded: each replica limits on its own.
 */
export class LoginLimiter {
  private readonly perPair: WindowCounter;
  private readonly perUser: WindowCounter;

  constructor(
    maxFailures = MAX_FAILURES_PER_ADDRESS,
    windowMs = WINDOW_MS,
    maxFailuresPerUser = maxFailures * PER_USER_FACTOR,
  ) {
    const limit = (max: number): WindowLimit => ({ max, windowMs });
    this.perPair = new WindowCounter(limit(maxFailures));
    this.perUser = new WindowCounter(limit(maxFailuresPerUser));
  }

  private userKey(user: string): string {
    return user.toLowerCase();
  }

  private pairKey(user: string, address: string): string {
    return `${this.userKey(user)}\u0000${addressKey(address)}`;
  }

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(user: string, address: string, now = Date.now()): number {
    return Math.max(
      this.perPair.retryAfter(this.pairKey(user, address), now),
      this.perUser.retryAfter(this.userKey(user), now),
    );
  }

  /**
   * Lets an attempt in and counts it as failed, in one step with no wait between the check and
   * the count; or answers the seconds it must wait.
   */
  begin(user: string, address: string, now = Date.now()): { attempt: LoginAttempt } | { wait: number } {
    const wait = this.retryAfter(user, address, now);
    if (wait > 0) return { wait };
    const attempt = {
      user,
      address,
      pairWindowEnd: this.perPair.count(this.pairKey(user, address), now),
      userWindowEnd: this.perUser.count(this.userKey(user), now),
    };
    return { attempt };
  }

  /** The attempt's password was right: it was no failure, and its address starts afresh. */
  succeed(attempt: LoginAttempt): void {
    this.perUser.refund(this.userKey(attempt.user), attempt.userWindowEnd);
    this.perPair.forget(this.pairKey(attempt.user, attempt.address));
  }
}
