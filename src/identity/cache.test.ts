import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../test/server.js';
import type { Database } from '../db/database.js';

let server: TestServer;
let user: TestUser;
let original: Database;
let queries = 0;

/**
 * Background work that may fall inside a slow flood, none of the requests' doing: retention's
 * pruning (30 s after the server starts) and the safeguard check (every minute).
 */
const isBackground = (text: string) =>
  /^DELETE FROM \w+\s+WHERE/.test(text) || /FROM safeguards s JOIN impact_metric_configs/.test(text);

/**
 * Every statement the app sends while the test runs, counted: the database the app reads
 * (ctx.db) is swapped for one that counts each query, and each query of each transaction.
 */
function countingDatabase(db: Database): Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'query') {
        return (text: string, params?: readonly unknown[]) => {
          if (!isBackground(text)) queries++;
          return target.query(text, params);
        };
      }
      if (property === 'transaction') {
        return (
          fn: Parameters<Database['transaction']>[0],
          options?: Parameters<Database['transaction']>[1],
        ) =>
          target.transaction(
            (tx) =>
              fn(
                new Proxy(tx, {
                  get(t, p) {
                    if (p !== 'query') return Reflect.get(t, p);
                    return (text: string, params?: readonly unknown[]) => {
                      queries++;
                      return t.query(text, params);
                    };
                  },
                }),
              ),
            options,
          );
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

beforeAll(async () => {
  server = await startTestServer();
  user = await createUser(server, 3);
  original = server.ctx.db;
  server.ctx.db = countingDatabase(original);
});
afterAll(async () => {
  server.ctx.db = original;
  await server.close();
});

const badApiToken = () => `*:*.${randomBytes(28).toString('hex')}`;
const badPat = () => `user:${randomBytes(28).toString('hex')}`;
const badSession = () => `unleash-session=${randomBytes(32).toString('base64url')}`;

async function statusesOf(credentials: { token?: string; cookie?: string }[]): Promise<number[]> {
  const statuses: number[] = [];
  // In batches, so that the flood is quick without holding thousands of requests at once.
  for (let i = 0; i < credentials.length; i += 200) {
    const batch = credentials.slice(i, i + 200);
    const replies = await Promise.all(batch.map((c) => server.request('GET', '/api/admin/user', c)));
    statuses.push(...replies.map((r) => r.status));
  }
  return statuses;
}

async function queriesFor(credentials: { token?: string; cookie?: string }[]) {
  const before = queries;
  const statuses = await statusesOf(credentials);
  return { statuses, queries: queries - before };
}

describe('credentials that name nobody', () => {
  it('cost at most one query each, and none when sent again', async () => {
    const bad = [
      ...Array.from({ length: 100 }, () => ({ token: badApiToken() })),
      ...Array.from({ length: 100 }, () => ({ token: badPat() })),
      ...Array.from({ length: 100 }, () => ({ cookie: badSession() })),
    ];
    const first = await queriesFor(bad);
    expect(first.statuses.every((s) => s === 401)).toBe(true);
    expect(first.queries).toBeGreaterThan(0);
    expect(first.queries).toBeLessThanOrEqual(bad.length);
    const again = await queriesFor(bad);
    expect(again.statuses.every((s) => s === 401)).toBe(true);
    expect(again.queries).toBe(0);
  });

  it('cannot push good credentials out of the cache, however many there are', async () => {
    const good = [{ token: user.pat }, { cookie: user.cookie }, { token: server.adminToken }];
    // Resolved once through the counting database (which also has its `seenAt` write behind it).
    expect(await statusesOf(good)).toEqual([200, 200, 200]);
    const warm = await queriesFor(good);
    expect(warm).toEqual({ statuses: [200, 200, 200], queries: 0 });

    // More bad secrets than the whole credential cache holds (10,000 tokens, 10,000 sessions).
    const flood = Array.from({ length: 21_000 }, (_, i) =>
      i % 4 === 0 ? { token: badApiToken() } : i % 4 === 1 ? { token: badPat() } : { cookie: badSession() },
    );
    const flooded = await queriesFor(flood);
    expect(flooded.statuses.every((s) => s === 401)).toBe(true);
    expect(flooded.queries).toBeLessThanOrEqual(flood.length);

    expect(await queriesFor(good)).toEqual({ statuses: [200, 200, 200], queries: 0 });
  }, 120_000);
});
