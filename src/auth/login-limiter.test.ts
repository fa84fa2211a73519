import { describe, expect, it } from 'vitest';
import { LoginLimiter } from './login-limiter.js';

describe('LoginLimiter', () => {
  it('blocks a (user, address) pair after the allowed failures until the window ends', () => {
    const limiter = new LoginLimiter(3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfter('Ann', '1.1.1.1', t0)).toBe(0);
      limiter.fail('Ann', '1.1.1.1', t0);
    }
    expect(limiter.retryAfter('ann', '1.1.1.1', t0 + 1000)).toBe(59);
    expect(limiter.retryAfter('ann', '2.2.2.2', t0)).toBe(0);
    expect(limiter.retryAfter('bob', '1.1.1.1', t0)).toBe(0);
    expect(limiter.retryAfter('ann', '1.1.1.1', t0 + 60_000)).toBe(0);
  });

  it('forgets failures after a success', () => {
    const limiter = new LoginLimiter(2, 60_000);
    limiter.fail('ann', 'a', 0);
    limiter.succeed('ann', 'a');
    limiter.fail('ann', 'a', 0);
    expect(limiter.retryAfter('ann', 'a', 0)).toBe(0);
  });

  it('also blocks a user whatever the address, after five times as many failures', () => {
    const limiter = new LoginLimiter(3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 15; i++) limiter.fail('ann', `10.0.0.${i % 5}`, t0);
    expect(limiter.retryAfter('ann', '10.0.0.99', t0)).toBe(60);
    expect(limiter.retryAfter('bob', '10.0.0.1', t0)).toBe(0);
    expect(limiter.retryAfter('ann', '10.0.0.99', t0 + 60_000)).toBe(0);
  });

  it('counts an IPv6 client by its /64 network', () => {
    const limiter = new LoginLimiter(3, 60_000);
    for (const address of ['2001:db8:0:7::1', '2001:db8:0:7::2', '2001:db8:0:7:ffff:ffff:ffff:ffff']) {
      limiter.fail('ann', address, 0);
    }
    expect(limiter.retryAfter('ann', '2001:db8::7:1:2:3:4', 0)).toBe(60);
    expect(limiter.retryAfter('ann', '2001:db8:0:8::1', 0)).toBe(0);
  });

  it('stays bounded without forgetting everything at once: a flood of new keys never unblocks a recent one', () => {
    const limiter = new LoginLimiter(3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 50_000; i++) limiter.fail(`flood-a${i}`, '9.9.9.9', t0);
    for (let i = 0; i < 3; i++) limiter.fail('ann', '1.1.1.1', t0);
    for (let i = 0; i < 60_000; i++) limiter.fail(`flood-b${i}`, '9.9.9.9', t0);
    expect(limiter.retryAfter('ann', '1.1.1.1', t0)).toBe(60);
  });
});
