export type Row = Record<string, unknown>;

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** What a store needs: the database itself or an open transaction. */
export interface Queryable {
  query<R = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

export interface TransactionOptions {
  /** READ COMMITTED unless asked; REPEATABLE READ gives every statement one snapshot. */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  readOnly?: boolean;
}

/** Runs just before COMMIT; a lower `order` runs first. */
export interface CommitTask {
  order: number;
  run(tx: Transaction): Promise<void>;
}

export interface Transaction extends Queryable {
  /** The database the transaction runs on (for modules that keep state per database). */
  readonly database: Database;
  /** Runs a script of several statements (migrations only). */
  exec(sql: string): Promise<void>;
  /**
   * Work that belongs at the very end of the transaction: the audit events of the change and the
   * configuration revision, whose row lock should be held for as short a time as possible.
   */
  beforeCommit(task: CommitTask): void;
  /** Called once the transaction has committed; never after a rollback. */
  afterCommit(task: () => void): void;
  /** State a module keeps for the length of one transaction, under a key it owns. */
  local<T>(key: object, init: () => T): T;
  /**
   * A row as this transaction last locked or wrote it, under a key its store owns — as long as no
   * statement has run since (any statement may have changed it). Concurrent changes of one row
   * committing together (group commit) read it once.
   */
  recall<T>(key: string): T | undefined;
  remember(key: string, row: unknown): void;
  /**
   * A write that the next write of the same key replaces entirely (absolute values of one locked
   * row). It runs before the next statement, or before COMMIT: changes of one row in a row write
   * it once.
   */
  deferWrite(key: string, text: string, params: readonly unknown[]): void;
  /**
   * What the transaction's own work (before its commit tasks) has written so far: nothing, only
   * deferred writes (so what changed is exactly what their writers know), or other writes too. A
   * statement that does not begin with SELECT counts as a write.
   */
  readonly writes: 'none' | 'deferred' | 'other';
}

/**
 * One pool-shaped object over either back-end, so nothing above `db/` knows which one it has.
 * `transaction` is the only way to group statements, and inside one only its handle may be used:
 * reaching the pool from inside a transaction throws (on PGlite it would wait forever).
 */
export interface Database extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `fn` so that every transaction and query it makes runs in one transaction, committed when
   * it ends (or rolled back when it throws): several changes made by code written for one at a
   * time, all or none of them (an approved change request).
   */
  atomically<T>(fn: () => Promise<T>): Promise<T>;
  /** Calls `onNotify` with the payload of every NOTIFY on `channel`; resolves to a function that stops. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PostgreSQL only: the connection pool now, for monitoring. */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  /** Connections open, in use or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a free connection. */
  waiting: number;
  max: number;
}

/** The transaction `db` is, when it is one (a store may then recall rows and defer writes). */
export function transactionOf(db: Queryable): Transaction | undefined {
  return 'deferWrite' in db ? (db as Transaction) : undefined;
}
