import { type Queryable, transactionOf } from './database.js';
/**
 * Row locks for read-modify-write. A service that reads a row, decides on what it read, then
 * writes must read it locked, inside the transaction that writes: a concurrent change of the same
 * row then waits for this one to commit and decides on what it wrote, instead of on what was
 * there before (a lost update, or an audit event whose `preData` never existed).
 *
 * The convention: a store's read takes `{ lock }` (`ReadOptions`) and builds its SELECT with
 * `withRowLock`; nothing else appends a locking clause.
 *
 * - `update`: the row will change but keep its key (FOR NO KEY UPDATE). Transactions that only
 *   insert rows referencing it (their foreign-key checks take a key-share lock) do not wait, so
 *   adding a strategy never waits for, or deadlocks with, a change of its feature's metadata.
 * - `exclusive`: the row will be deleted, or what references it is about to be checked (FOR
 *   UPDATE). This also waits for transactions still inserting rows that reference it, so the
 *   check sees them, rather than a foreign-key error or a cascade surprising someone at commit.
 * - `share`: the row is not written, but what this transaction writes relies on it as read, e.g. a
 *   strategy using a segment that must stay in its project (FOR SHARE). It cannot change or go
 *   until commit; other transactions sharing it do not wait for each other.
 *
 * The embedded database runs one transaction at a time, so there the locks cost nothing.
 */
export type RowLock = 'update' | 'exclusive' | 'share';

export interface ReadOptions {
  lock?: RowLock;
}

const CLAUSES: Record<RowLock, string> = {
  update: 'FOR NO KEY UPDATE',
  exclusive: 'FOR UPDATE',
  share: 'FOR SHARE',
};

/** `select` locking the rows it returns as `lock` asks; `of` names the table to lock when it joins several. */
export function withRowLock(select: string, lock: RowLock | undefined, of?: string): string {
  if (!lock) return select;
  return `${select} ${CLAUSES[lock]}${of ? ` OF ${of}` : ''}`;
}

/**
 * Reads one row under `lock` through `read`. Read for `update`, the row is remembered by the
 * transaction, and a later read of it that takes no stronger lock is answered from there while no
 * statement has run since: concurrent changes of one row committing together read it once.
 */
export async function readRow<T>(
  db: Queryable,
  key: string,
  lock: RowLock | undefined,
  read: () => Promise<T | null>,
): Promise<T | null> {
  const tx = transactionOf(db);
  if (tx && lock !== 'exclusive') {
    const known = tx.recall<T>(key);
    if (known !== undefined) return known;
  }
  const row = await read();
  if (tx && row && lock === 'update') tx.remember(key, row);
  return row;
}
