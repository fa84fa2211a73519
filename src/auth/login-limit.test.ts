import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, STRONG_PASSWORD, startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const attempt = (username: string, password: string, remoteAddress: string) =>
  server.request('POST', '/auth/simple/login', { body: { username, password }, remoteAddress });

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

describe('the sign-in limits under concurrency', () => {
  it('lets 10 of 40 simultaneous wrong passwords of one user from one address be checked; the rest get 429', async () => {
    const user = await createUser(server, 3);
    const replies = await Promise.all(
      Array.from({ length: 40 }, () => attempt(user.username, 'Wrong-Password-1', '10.1.0.1')),
    );
    expect(tally(replies.map((r) => r.status))).toEqual({ 401: 10, 429: 30 });
    expect(replies.find((r) => r.status === 429)!.body.name).toBe('RateLimitError');
    // The right password from there waits too; from elsewhere it works.
    expect((await attempt(user.username, STRONG_PASSWORD, '10.1.0.1')).status).toBe(429);
    expect((await attempt(user.username, STRONG_PASSWORD, '10.1.0.2')).status).toBe(200);
  });

  it('holds the per-user limit of 50 when the guesses come at once from many addresses', async () => {
    const user = await createUser(server, 3);
    // Eight from each of eight addresses: no address reaches its own limit of ten.
    const replies = await Promise.all(
      Array.from({ length: 64 }, (_, i) => attempt(user.username, 'Wrong-Password-1', `10.2.0.${i % 8}`)),
    );
    expect(tally(replies.map((r) => r.status))).toEqual({ 401: 50, 429: 14 });
    expect((await attempt(user.username, STRONG_PASSWORD, '10.2.1.1')).status).toBe(429);
  });

  it('counts a name nobody has the same way', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => attempt('nobody-at-all', 'Wrong-Password-1', '10.3.0.1')),
    );
    expect(tally(replies.map((r) => r.status))).toEqual({ 401: 10, 429: 10 });
  });

  it('gives back a sign-in that succeeds: the limit is free again once they are done', async () => {
    const user = await createUser(server, 3);
    // Under way together they hold the limit (ten at once); none is left counted.
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => attempt(user.username, STRONG_PASSWORD, '10.4.0.1')),
    );
    expect(tally(replies.map((r) => r.status))).toEqual({ 200: 10 });
    // Nine failures after them still leave one try: the successes used none of the ten.
    for (let i = 0; i < 9; i++) {
      expect((await attempt(user.username, 'Wrong-Password-1', '10.4.0.1')).status).toBe(401);
    }
    expect((await attempt(user.username, STRONG_PASSWORD, '10.4.0.1')).status).toBe(200);
  });
});
