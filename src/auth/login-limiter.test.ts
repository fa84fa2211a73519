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
});
