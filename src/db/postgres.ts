import pg from 'pg';
import type { Database, QueryResult, Transaction } from './database.js';

const INT8_OID = 20;

// node-postgres returns int8 as text; PGlite returns numbers. Ids and counts fit in a double.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as never,
};

function result<R>(r: pg.QueryResult): QueryResult<R> {
  return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
}

export async function openPostgres(connectionString: string, max = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max, types });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  await pool.query('SELECT 1');

  return {
    kind: 'postgres',
    async query<R>(text: string, params?: readonly unknown[]) {
      return result<R>(await pool.query(text, params as unknown[]));
    },
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      const tx: Transaction = {
        async query<R>(text: string, params?: readonly unknown[]) {
          return result<R>(await client.query(text, params as unknown[]));
        },
        async exec(sql: string) {
          await client.query(sql);
        },
      };
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const value = await fn(tx);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    // A connection of its own, outside the pool, since it sits in LISTEN for good; it comes back
    // after a lost connection, and the callers poll besides, so a gap only delays them.
    async listen(channel: string, onNotify: () => void) {
      let client: pg.Client | undefined;
      let stopped = false;
      const connect = async (): Promise<void> => {
        if (stopped) return;
        const c = new pg.Client({ connectionString });
        c.on('notification', () => onNotify());
        c.on('error', () => {
          c.end().catch(() => {});
          if (!stopped) setTimeout(() => void connect().catch(() => {}), 1000).unref();
        });
        await c.connect();
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = c;
      };
      await connect();
      return async () => {
        stopped = true;
        await client?.end().catch(() => {});
      };
    },
    async close() {
      await pool.end();
    },
  };
}
