import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  CommitTask,
  Database,
  Queryable,
  QueryResult,
  Transaction,
  TransactionOptions,
} from './database.js';
import { asDeferredWriteFailure, isRetryable } from './errors.js';
import { CommitGroups, sharesCommits } from './group-commit.js';

/** An open transaction's connection, as a back-end hands it over. */
export interface Connection extends Queryable {
  exec(sql: string): Promise<void>;
}

/** What each back-end provides; `createDatabase` adds the rules both share. */
export interface Backend {
  kind: Database['kind'];
  query<R>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** BEGIN with the options, `fn` on the transaction's connection, COMMIT — or ROLLBACK when it throws. */
  inTransaction<T>(options: TransactionOptions, fn: (connection: Connection) => Promise<T>): Promise<T>;
  listen: Database['listen'];
  close(): Promise<void>;
  poolStats?: Database['poolStats'];
}

interface Scope {
  open: boolean;
}

const transactionScope = new AsyncLocalStorage<Scope>();
/** Inside `atomically`: the one transaction every transaction and query joins. */
const joined = new AsyncLocalStorage<Transaction>();

export class TransactionMisuseError extends Error {
  override name = 'TransactionMisuseError';
}

function assertOutsideTransaction(what: string): void {
  if (transactionScope.getStore()?.open) {
    throw new TransactionMisuseError(
      `${what} was called inside a transaction: use the transaction's handle (tx), not the database. ` +
        'On the embedded database this would wait forever for the transaction to end.',
    );
  }
}

async function runOnce<T>(
  database: Database,
  backend: Backend,
  fn: (tx: Transaction) => Promise<T>,
  options: TransactionOptions,
): Promise<T> {
  const scope: Scope = { open: true };
  const committed: (() => void)[] = [];
  return transactionScope.run(scope, async () => {
    let value: T;
    try {
      value = await backend.inTransaction(options, async (connection) => {
        const tasks: CommitTask[] = [];
        const locals = new Map<object, unknown>();
        const live = () => {
          if (!scope.open) throw new TransactionMisuseError('This transaction has already ended.');
        };
        const memo = new Map<string, unknown>();
        let ownWork = true;
        let writes: Transaction['writes'] = 'none';
        const note = (text: string) => {
          if (ownWork && !/^\s*SELECT\b/i.test(text)) writes = 'other';
        };
        const deferred = new Map<string, { text: string; params: readonly unknown[] }>();
        const flush = async () => {
          memo.clear();
          if (deferred.size === 0) return;
          const pending = [...deferred.values()];
          deferred.clear();
          try {
            for (const w of pending) await connection.query(w.text, w.params);
          } catch (error) {
            throw asDeferredWriteFailure(error);
          }
        };
        const tx: Transaction = {
          database,
          async query(text, params) {
            live();
            await flush();
            note(text);
            return connection.query(text, params);
          },
          recall<R>(key: string) {
            return memo.get(key) as R | undefined;
          },
          remember(key, row) {
            memo.set(key, row);
          },
          deferWrite(key, text, params) {
            live();
            deferred.set(key, { text, params });
            if (ownWork && writes === 'none') writes = 'deferred';
          },
          async exec(sql) {
            live();
            await flush();
            writes = 'other';
            return connection.exec(sql);
          },
          beforeCommit(task) {
            tasks.push(task);
          },
          afterCommit(task) {
            committed.push(task);
          },
          get writes() {
            return writes;
          },
          local<L>(key: object, init: () => L): L {
            if (!locals.has(key)) locals.set(key, init());
            return locals.get(key) as L;
          },
        };
        const result = await fn(tx);
        ownWork = false;
        tasks.sort((a, b) => a.order - b.order);
        for (const task of tasks) await task.run(tx);
        await flush();
        return result;
      });
    } finally {
      scope.open = false;
    }
    // At once, before anything else runs: the caches learn of the commit before any other request
    // can ask them whether they hold everything.
    for (const task of committed) task();
    return value;
  });
}

/**
 * The database as every store sees it. Inside `transaction`, only the handle may be used (the
 * pool throws); a serialization failure or deadlock reruns the whole transaction once. The
 * transactions of changes (see `shareCommits`) commit in groups.
 */
export function createDatabase(backend: Backend): Database {
  const alone = async <T>(fn: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}) => {
    try {
      return await runOnce(database, backend, fn, options);
    } catch (error) {
      if (!isRetryable(error)) throw error;
      return runOnce(database, backend, fn, options);
    }
  };
  const groups = new CommitGroups(alone, backend.kind === 'embedded' ? 1 : 4);
  const database: Database = {
    kind: backend.kind,
    query(text, params) {
      const outer = joined.getStore();
      if (outer) return outer.query(text, params);
      assertOutsideTransaction('db.query');
      return backend.query(text, params);
    },
    transaction(fn, options = {}) {
      const outer = joined.getStore();
      if (outer) return fn(outer);
      assertOutsideTransaction('db.transaction');
      const plain = options.isolation === undefined && !options.readOnly;
      return plain && sharesCommits() ? groups.add(fn) : alone(fn, options);
    },
    atomically(fn) {
      if (joined.getStore()) return fn();
      assertOutsideTransaction('db.atomically');
      // What the commit starts (cache catch-ups, deliveries) runs after it, outside `joined`.
      return alone((tx) => joined.run(tx, fn));
    },
    // A notification can arrive while a transaction commits (PGlite delivers it then); what it
    // starts must not count as inside that transaction.
    listen: (channel, onNotify) =>
      backend.listen(channel, (payload) => transactionScope.exit(() => onNotify(payload))),
    close: () => backend.close(),
    ...(backend.poolStats ? { poolStats: backend.poolStats } : {}),
  };
  return database;
}
