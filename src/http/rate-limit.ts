import { isIPv6 } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { turnAwayWhenPiledUp } from './busy.js';
import { RateLimitError } from './errors.js';

export interface WindowLimit {
  /** How many events a key may have in one window. */
  max: number;
  windowMs: number;
}

interface Window {
  count: number;
  endsAt: number;
}

/** Keys remembered at most; beyond it the least recently used key is forgotten, one at a time. */
const MAX_KEYS = 100_000;

/**
 * Counts events per key in fixed windows: once a key has had `max` in its window, it waits for
 * the window to end. In memory and per process (each replica counts on its own), and bounded:
 * a flood of new keys pushes out the keys least recently seen, never everything at once, and a
 * key still being refused is seen on every try, so it stays.
 */
export class WindowCounter {
  // Made on the first event, not at start: an LRU of this size allocates its slots up front, and
  // most of a server's counters (sign-up, resets, SSO starts) never count anything.
  private windows: LRUCache<string, Window> | undefined;

  constructor(
    readonly limit: WindowLimit,
    private readonly maxKeys = MAX_KEYS,
  ) {}

  /** Seconds until the key may act again, or 0 when it may now. */
  retryAfter(key: string, now = Date.now()): number {
    const window = this.windows?.get(key);
    if (!window || window.endsAt <= now || window.count < this.limit.max) return 0;
    return Math.ceil((window.endsAt - now) / 1000);
  }

  /** Counts an event; answers when its window ends, which `refund` needs to take it back. */
  count(key: string, now = Date.now()): number {
    this.windows ??= new LRUCache({ max: this.maxKeys });
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      const endsAt = now + this.limit.windowMs;
      this.windows.set(key, { count: 1, endsAt });
      return endsAt;
    }
    window.count++;
    return window.endsAt;
  }

  /**
   * Takes back an event counted in the window ending at `endsAt`; nothing when that window has
   * ended since (a new one does not owe it) or the key was forgotten.
   */
  refund(key: string, endsAt: number): void {
    const window = this.windows?.get(key);
    if (window && window.endsAt === endsAt && window.count > 0) window.count--;
  }

  forget(key: string): void {
    this.windows?.delete(key);
  }
}

/** The eight groups of an IPv6 address, written out in full. */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const left = part(head);
  const right = part(tail);
  // An embedded IPv4 address (a:b::1.2.3.4) stands for two groups.
  const last = right.length > 0 ? right : left;
  if (last.at(-1)?.includes('.')) {
    const [a, b, c, d] = last.pop()!.split('.').map(Number) as [number, number, number, number];
    last.push(((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = tail === undefined ? [] : new Array(8 - left.length - right.length).fill('0');
  return [...left, ...missing, ...right].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}

/**
 * Whom an address limit counts: an IPv4 address as it is (also when written as `::ffff:a.b.c.d`),
 * an IPv6 address by its /64 network — one subscriber is usually given a whole /64, so counting
 * single IPv6 addresses would hand an attacker billions of fresh limits.
 */
export function addressKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
}

/**
 * A route's `onRequest` hook allowing each client address `limit.max` requests per window;
 * more get 429 RateLimitError with `Retry-After`. `what` names the requests in the message.
 */
export function limitPerAddress(limit: WindowLimit, what: string) {
  const counter = new WindowCounter(limit);
  return async (request: FastifyRequest): Promise<void> => {
    const key = addressKey(request.ip);
    const wait = counter.retryAfter(key);
    if (wait > 0) {
      throw new RateLimitError(`Too many ${what} from your address: try again in ${wait} seconds.`, wait);
    }
    counter.count(key);
  };
}

const MINUTE_MS = 60 * 1000;

/**
 * A route's `onRequest` hook for the SDK paths (after authentication): each client address may
 * make `perAddress` requests a minute and each token `perToken`; more get 429 RateLimitError with
 * `Retry-After`, before the body is read. Both count: a public token in a web page is limited by
 * address, and by token when it is used from many addresses. While half a megabyte of such bodies is
 * already under way (a flood from more addresses and tokens than the limits can tell apart), more
 * are turned away at once, uncounted, so the rest of the server keeps answering promptly.
 */
export function limitSdkRequests(limits: { perAddress: number; perToken: number }, what: string) {
  const limit = limitSdkEvaluations(limits, what);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await limit.check(request, reply);
    limit.charge(request);
  };
}

/**
 * As `limitSdkRequests`, for evaluations whose answer the server may already hold: `check` (the
 * route's `onRequest` hook) turns away a caller past its limit, and the handler `charge`s only an
 * answer it had to work out, so an SDK polling with the same context is not counted, while
 * contexts made up to defeat the answers kept are.
 */
export function limitSdkEvaluations(limits: { perAddress: number; perToken: number }, what: string) {
  const byAddress = new WindowCounter({ max: limits.perAddress, windowMs: MINUTE_MS });
  const byToken = new WindowCounter({ max: limits.perToken, windowMs: MINUTE_MS });
  const tokenOf = (request: FastifyRequest) => {
    const identity = request.identity;
    return identity?.kind === 'token' ? String(identity.tokenId) : undefined;
  };
  return {
    async check(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (turnAwayWhenPiledUp(request.raw, reply.raw)) {
        throw new RateLimitError(`The server is busy: send the ${what} again in a second.`, 1);
      }
      const token = tokenOf(request);
      const wait = Math.max(
        byAddress.retryAfter(addressKey(request.ip)),
        token === undefined ? 0 : byToken.retryAfter(token),
      );
      if (wait > 0) {
        throw new RateLimitError(
          `Too many ${what} from this address or with this token: try again in ${wait} seconds.`,
          wait,
        );
      }
    },
    charge(request: FastifyRequest): void {
      byAddress.count(addressKey(request.ip));
      const token = tokenOf(request);
      if (token !== undefined) byToken.count(token);
    },
  };
}

export type SdkEvaluationLimit = ReturnType<typeof limitSdkEvaluations>;
