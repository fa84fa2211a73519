import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres, startTestServer, type TestServer } from '../../test/server.js';
import { startTcpProxy } from '../../test/tcp-proxy.js';
import { recordEvent } from '../events/service.js';
import { silentLogger } from '../log.js';
import { TransactionMisuseError } from './kernel.js';
import { openPostgres } from './postgres.js';

describe('transactions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('refuse the database itself inside a transaction, instead of waiting forever', async () => {
    const { db } = server.ctx;
    const outcome = await Promise.race([
      db
        .transaction(async () => {
          await db.query('SELECT 1');
        })
        .then(
          () => 'no error',
          (error: unknown) => error,
        ),
      new Promise((r) => setTimeout(() => r('hung'), 5000)),
    ]);
    expect(outcome).toBeInstanceOf(TransactionMisuseError);
    await expect(db.transaction(() => db.transaction(async () => 1))).rejects.toThrow(TransactionMisuseError);
    // the database works as before afterwards, outside and inside transactions
    expect((await db.query<{ n: number }>('SELECT 1 AS n')).rows[0]!.n).toBe(1);
    expect(
      await db.transaction(async (tx) => (await tx.query<{ n: number }>('SELECT 2 AS n')).rows[0]!.n),
    ).toBe(2);
  });

  it('run everything made inside atomically in one transaction: all of it commits, or none', async () => {
    const { db } = server.ctx;
    await db.query('CREATE TABLE IF NOT EXISTS atomic_probe (n integer PRIMARY KEY)');
    const count = async () =>
      Number((await db.query<{ c: string }>('SELECT count(*) AS c FROM atomic_probe')).rows[0]!.c);
    const failed = db.atomically(async () => {
      await db.transaction((tx) => tx.query('INSERT INTO atomic_probe VALUES (1)'));
      await db.query('INSERT INTO atomic_probe VALUES (2)');
      // The second transaction sees the first one's row: they are one.
      expect(await count()).toBe(2);
      await db.transaction((tx) => tx.query('INSERT INTO atomic_probe VALUES (1)'));
    });
    await expect(failed).rejects.toThrow();
    expect(await count()).toBe(0);
    await db.atomically(async () => {
      await db.transaction((tx) => tx.query('INSERT INTO atomic_probe VALUES (3)'));
      await db.transaction((tx) => tx.query('INSERT INTO atomic_probe VALUES (4)'));
    });
    expect(await count()).toBe(2);
    await expect(db.transaction(() => db.atomically(async () => 1))).rejects.toThrow(TransactionMisuseError);
    await db.query('DROP TABLE atomic_probe');
  });

  it('refuse a transaction handle used after its transaction ended', async () => {
    let leaked: { query(text: string): Promise<unknown> } | undefined;
    await server.ctx.db.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.query('SELECT 1')).rejects.toThrow(TransactionMisuseError);
  });

  it('run a transaction again, once, after a serialization failure or deadlock', async () => {
    for (const code of ['40001', '40P01']) {
      let attempts = 0;
      const value = await server.ctx.db.transaction(async (tx) => {
        attempts++;
        await tx.query('SELECT 1');
        if (attempts === 1) throw Object.assign(new Error('could not serialize access'), { code });
        return 'done';
      });
      expect(value).toBe('done');
      expect(attempts).toBe(2);
    }
    let attempts = 0;
    await expect(
      server.ctx.db.transaction(async () => {
        attempts++;
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      }),
    ).rejects.toThrow('deadlock detected');
    expect(attempts).toBe(2);
  });

  it('roll back everything, the audit events included, when the work fails', async () => {
    const { db } = server.ctx;
    const count = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
    const before = await count();
    const revision = server.ctx.sync.revision;
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO tag_types (name) VALUES ('half-written')`);
        recordEvent(tx, { name: 'test', userId: null }, { type: 'tag-type-created', data: {} });
        throw new Error('fails after writing');
      }),
    ).rejects.toThrow('fails after writing');
    expect(await count()).toBe(before);
    expect((await db.query(`SELECT 1 FROM tag_types WHERE name = 'half-written'`)).rows).toEqual([]);
    expect(server.ctx.sync.revision).toBe(revision);
  });
});

describe.runIf(isPostgres())('a PostgreSQL connection lost in the middle of a transaction', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('fails that transaction, not the process, and the pool goes on with new connections', async () => {
    const url = new URL(server.database.url!);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    const db = await openPostgres(url.toString(), { pool: { max: 2 }, log: silentLogger });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      let lost!: () => void;
      const connectionLost = new Promise<void>((r) => {
        lost = r;
      });
      const work = db.transaction(async (tx) => {
        await tx.query('SELECT 1');
        // a row waiting unread makes the cut a reset (ECONNRESET), as a real outage does
        proxy.cut();
        await new Promise((r) => setTimeout(r, 200));
        lost();
        await tx.query('SELECT 2');
      });
      await connectionLost;
      await expect(work).rejects.toThrow();
      expect(uncaught).toEqual([]);
      proxy.restore();
      expect((await db.query<{ n: number }>('SELECT 3 AS n')).rows[0]!.n).toBe(3);
    } finally {
      process.off('uncaughtException', onUncaught);
      await db.close().catch(() => {});
      await proxy.close();
    }
  });
});
