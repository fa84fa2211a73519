import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/server.js';
import type { Transaction } from './database.js';
import { shareCommits, sharesCommits } from './group-commit.js';

/** The id of the database transaction a statement runs in. */
async function txid(tx: Transaction): Promise<string> {
  return (await tx.query<{ id: string }>('SELECT txid_current()::text AS id')).rows[0]!.id;
}

describe('group commit of changes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.ctx.db.query('CREATE TABLE IF NOT EXISTS group_commit_probe (n int PRIMARY KEY, seen int)');
  });
  afterAll(() => server?.close());

  const count = async () =>
    (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM group_commit_probe')).rows[0]!
      .n;

  it('commits concurrent changes in one transaction, in the order they asked, each with its own result', async () => {
    const { db } = server.ctx;
    await db.query('DELETE FROM group_commit_probe');
    // Warm: a group takes new members for a limited time, which a cold first statement may use up.
    await db.transaction((tx) => tx.query('SELECT count(*) FROM group_commit_probe'));
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        shareCommits(() =>
          db.transaction(async (tx) => {
            const before = await count().catch(() => -1);
            // Each sees the rows of those before it in the group.
            const seen = (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM group_commit_probe'))
              .rows[0]!.n;
            await tx.query('INSERT INTO group_commit_probe (n, seen) VALUES ($1, $2)', [n, seen]);
            return { n, seen, before, id: await txid(tx) };
          }),
        ),
      ),
    );
    expect(answers.map((a) => a.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(answers.map((a) => a.seen)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // The pool is refused inside a transaction, in a group as alone.
    expect(answers.every((a) => a.before === -1)).toBe(true);
    // One group, or more should the first take longer than a group may go on taking members (a
    // busy machine: five were seen while other suites ran beside this one): never one each.
    expect(new Set(answers.map((a) => a.id)).size).toBeLessThan(answers.length);
    expect(await count()).toBe(8);
  });

  it('gives a failing change its error and commits the others without it', async () => {
    const { db } = server.ctx;
    await db.query('DELETE FROM group_commit_probe');
    let runs = 0;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, n) =>
        shareCommits(() =>
          db.transaction(async (tx) => {
            runs++;
            await tx.query('INSERT INTO group_commit_probe (n, seen) VALUES ($1, 0)', [n]);
            if (n === 2) throw new Error('refused');
            return txid(tx);
          }),
        ),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toHaveProperty('message', 'refused');
    // Those in the group the third failed ran again; the third did not (on a busy machine the
    // group may have committed the first ones before the third came: fewer runs).
    expect(runs).toBeLessThanOrEqual(7);
    expect(runs).toBeGreaterThanOrEqual(5);
    const rows = await db.query<{ n: number }>('SELECT n FROM group_commit_probe ORDER BY n');
    expect(rows.rows.map((r) => r.n)).toEqual([0, 1, 3, 4]);
  });

  it("pins a deferred write's failure on no other change: each then runs alone", async () => {
    const { db } = server.ctx;
    await db.query('DELETE FROM group_commit_probe');
    await db.query('INSERT INTO group_commit_probe (n, seen) VALUES (100, 0)');
    const outcomes = await Promise.allSettled([
      shareCommits(() =>
        db.transaction(async (tx) => {
          // Fails (a duplicate key), but only when the next statement runs: the other change's.
          tx.deferWrite('probe:100', 'INSERT INTO group_commit_probe (n, seen) VALUES (100, 1)', []);
        }),
      ),
      shareCommits(() =>
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO group_commit_probe (n, seen) VALUES (101, 0)');
        }),
      ),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']);
    const rows = await db.query<{ n: number }>('SELECT n FROM group_commit_probe ORDER BY n');
    expect(rows.rows.map((r) => r.n)).toEqual([100, 101]);
  });

  it('runs what a commit starts outside the changes: its transactions are not grouped', async () => {
    let afterwards: boolean | undefined;
    await shareCommits(() =>
      server.ctx.db.transaction(async (tx) => {
        tx.afterCommit(() => {
          afterwards = sharesCommits();
        });
      }),
    );
    expect(afterwards).toBe(false);
  });

  it('leaves transactions that are not changes, or ask for an isolation, to themselves', async () => {
    const { db } = server.ctx;
    const plain = await Promise.all([0, 1, 2].map(() => db.transaction(txid)));
    expect(new Set(plain).size).toBe(3);
    const isolated = await Promise.all(
      [0, 1, 2].map(() => shareCommits(() => db.transaction(txid, { isolation: 'repeatable read' }))),
    );
    expect(new Set(isolated).size).toBe(3);
  });

  it('answers every change of a burst to one flag through HTTP, with all its events', async () => {
    const as = { token: server.adminToken };
    const created = await server.request('POST', '/api/admin/projects/default/features', {
      ...as,
      body: { name: 'grouped' },
    });
    expect(created.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        server.request('PATCH', '/api/admin/projects/default/features/grouped', {
          ...as,
          body: [{ op: 'replace', path: '/description', value: `d${n}` }],
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const events = await server.request<{ events: { type: string; data: { description: string } }[] }>(
      'GET',
      '/api/admin/events/grouped',
      as,
    );
    const updates = events.body.events.filter((e) => e.type === 'feature-metadata-updated');
    expect(updates.map((e) => e.data.description).sort()).toEqual(
      Array.from({ length: 20 }, (_, n) => `d${n}`).sort(),
    );
    // Newest first: the flag kept the description of the last change.
    const feature = await server.request('GET', '/api/admin/projects/default/features/grouped', as);
    expect(feature.body.description).toBe(updates[0]!.data.description);
  });
});
