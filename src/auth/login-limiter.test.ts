import { describe, expect, it } from 'vitest';
import { type LoginAttempt, LoginLimiter } from './login-limiter.js';

/** An attempt that fails: counted when it begins, never given back. */
function fail(limiter: LoginLimiter, user: string, address: string, now = 0): void {
  expect('attempt' in limiter.begin(user, address, now)).toBe(true);
}

function begin(limiter: LoginLimiter, user: string, address: string, now = 0): LoginAttempt {
  const begun = limiter.begin(user, address, now);
  if (!('attempt' in begun)) throw new Error(`refused for ${begun.wait} s`);
  return begun.attempt;
}

describe('LoginLimiter', () => {
  it('blocks a (user, address) pair after the allowed failures until the window ends', () => {
    const limiter = new LoginLimiter(3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfter('Ann', '1.1.1.1', t0)).toBe(0);
      fail(limiter, 'Ann', '1.1.1.1', t0);
    }
    expect(limiter.retryAfter('ann', '1.1.1.1', t0 + 1000)).toBe(59);
    expect(limiter.begin('ann', '1.1.1.1', t0 + 1000)).toEqual({ wait: 59 });
    expect(limiter.retryAfter('ann', '2.2.2.2', t0)).toBe(0);
    expect(limiter.retryAfter('bob', '1.1.1.1', t0)).toBe(0);
    expect(limiter.retryAfter('ann', '1.1.1.1', t0 + 60_000)).toBe(0);
  });

  it('counts attempts when they begin: as many as the limit may be under way at once, no more', () => {
    const limiter = new LoginLimiter(3, 60_000);
    const under = [0, 1, 2].map(() => limiter.begin('ann', 'a', 0));
    expect(under.every((b) => 'attempt' in b)).toBe(true);
    expect(limiter.begin('ann', 'a', 0)).toEqual({ wait: 60 });
  });

  it('gives back a successful attempt and forgets the failures of its address', () => {
    const limiter = new LoginLimiter(2, 60_000);
    fail(limiter, 'ann', 'a');
    limiter.succeed(begin(limiter, 'ann', 'a'));
    fail(limiter, 'ann', 'a');
    expect(limiter.retryAfter('ann', 'a', 0)).toBe(0);
  });

  it('a success gives back only its own per-user count', () => {
    const limiter = new LoginLimiter(1, 60_000, 3);
    fail(limiter, 'ann', 'a');
    fail(limiter, 'ann', 'b');
    limiter.succeed(begin(limiter, 'ann', 'c'));
    fail(limiter, 'ann', 'd');
    expect(limiter.retryAfter('ann', 'e', 0)).toBe(60);
  });

  it('a success begun in a window that has ended takes nothing from the next one', () => {
    const limiter = new LoginLimiter(10, 60_000, 2);
    const old = begin(limiter, 'ann', 'a', 0);
    fail(limiter, 'ann', 'b', 60_000);
    fail(limiter, 'ann', 'c', 60_000);
    limiter.succeed(old);
    expect(limiter.retryAfter('ann', 'd', 60_000)).toBe(60);
  });

  it('also blocks a user whatever the address, after five times as many failures', () => {
    const limiter = new LoginLimiter(3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 15; i++) fail(limiter, 'ann', `10.0.0.${i % 5}`, t0);
    expect(limiter.retryAfter('ann', '10.0.0.99', t0)).toBe(60);
    expect(limiter.retryAfter('bob', '10.0.0.1', t0)).toBe(0);
    expect(limiter.retryAfter('ann', '10.0.0.99', t0 + 60_000)).toBe(0);
  });

  it('counts an IPv6 client by its /64 network', () => {
    const limiter = new LoginLimiter(3, 60_000);
    for (const address of ['2001:db8:0:7::1', '2001:db8:0:7::2', '2001:db8:0:7:ffff:ffff:ffff:ffff']) {
      fail(limiter, 'ann', address);
    }
    expect(limiter.retryAfter('ann', '2001:db8::7:1:2:3:4', 0)).toBe(60);
    expect(limiter.retryAfter('ann', '2001:db8:0:8::1', 0)).toBe(0);
  });

  it('stays bounded without forgetting everything at once: a flood of new keys never unblocks a recent one', () => {
    const limiter = new LoginLimiter(3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 50_000; i++) fail(limiter, `flood-a${i}`, '9.9.9.9', t0);
    for (let i = 0; i < 3; i++) fail(limiter, 'ann', '1.1.1.1', t0);
    for (let i = 0; i < 60_000; i++) fail(limiter, `flood-b${i}`, '9.9.9.9', t0);
    expect(limiter.retryAfter('ann', '1.1.1.1', t0)).toBe(60);
  });
});
