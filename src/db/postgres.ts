import pg from 'pg';
import type { Logger } from '../log.js';
import type { Database, QueryResult, TransactionOptions } from './database.js';
import { type Connection, createDatabase } from './kernel.js';
import { DEFAULT_POOL, PoolExhaustedError, type PoolOptions } from './pool.js';

const INT8_OID = 20;

// node-postgres returns int8 as text; PGlite returns numbers. Ids and counts fit in a double.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as never,
};

function result<R>(r: pg.QueryResult): QueryResult<R> {
  return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
}

function beginStatement(options: TransactionOptions): string {
  const parts = ['BEGIN'];
  if (options.isolation) parts.push(`ISOLATION LEVEL ${options.isolation.toUpperCase()}`);
  if (options.readOnly) parts.push('READ ONLY');
  return parts.join(' ');
}

const LISTEN_RETRY_MAX_MS = 30_000;

export interface PostgresOptions {
  pool?: Partial<PoolOptions>;
  log: Logger;
}

export async function openPostgres(connectionString: string, options: PostgresOptions): Promise<Database> {
  const settings = { ...DEFAULT_POOL, ...options.pool };
  const { log } = options;
  const pool = new pg.Pool({
    connectionString,
    types,
    max: settings.max,
    idleTimeoutMillis: settings.idleTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs,
    // Also bounds opening a new connection; that failure reads as an unreachable database.
    connectionTimeoutMillis: settings.acquireTimeoutMs,
  });
  // pg-pool tells a wait for a free connection that ran out only by this message.
  const busy = (error: unknown) =>
    error instanceof Error && error.message === 'timeout exceeded when trying to connect'
      ? new PoolExhaustedError(settings.max, settings.acquireTimeoutMs)
      : error;
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => log.error({ err: error }, 'database: an idle connection failed'));
  await pool.query('SELECT 1');

  return createDatabase({
    kind: 'postgres',
    async query<R>(text: string, params?: readonly unknown[]) {
      try {
        return result<R>(await pool.query(text, params as unknown[]));
      } catch (error) {
        throw busy(error);
      }
    },
    async inTransaction<T>(options: TransactionOptions, fn: (connection: Connection) => Promise<T>) {
      const client = await pool.connect().catch((error: unknown) => {
        throw busy(error);
      });
      // The pool stops listening to a client it has lent out: a connection lost between two
      // statements of this transaction would otherwise be an uncaught error that ends the process.
      let broken: Error | undefined;
      const onLost = (error: Error) => {
        broken = error;
        log.warn({ err: error }, 'database: a connection was lost inside a transaction');
      };
      client.on('error', onLost);
      const connection: Connection = {
        async query<R>(text: string, params?: readonly unknown[]) {
          return result<R>(await client.query(text, params as unknown[]));
        },
        async exec(sql: string) {
          await client.query(sql);
        },
      };
      try {
        await client.query(beginStatement(options));
        const value = await fn(connection);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.off('error', onLost);
        client.release(broken);
      }
    },
    // A connection of its own, outside the pool, since it sits in LISTEN for good. After a lost
    // connection it comes back, retrying with a growing delay; callers poll besides, so a gap
    // only delays them.
    async listen(channel, onNotify) {
      let client: pg.Client | undefined;
      let stopped = false;
      let delay = 1000;
      let scheduled = false;
      const connect = async (): Promise<void> => {
        const c = new pg.Client({ connectionString });
        c.on('notification', (message) => onNotify(message.payload ?? ''));
        c.on('error', (error) => {
          log.error({ err: error, channel }, 'database: the LISTEN connection failed; reconnecting');
          c.end().catch(() => {});
          if (client === c) client = undefined;
          reconnect();
        });
        await c.connect();
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = c;
        delay = 1000;
      };
      const reconnect = () => {
        if (stopped || scheduled) return;
        scheduled = true;
        setTimeout(() => {
          scheduled = false;
          if (stopped || client) return;
          connect().catch((error: unknown) => {
            log.error({ err: error, channel, retryInMs: delay }, 'database: LISTEN could not reconnect');
            delay = Math.min(delay * 2, LISTEN_RETRY_MAX_MS);
            reconnect();
          });
        }, delay).unref();
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
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: settings.max,
    }),
  });
}
