import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction as PGliteTransaction, type Results } from '@electric-sql/pglite';
import type { Database, QueryResult, Transaction } from './database.js';
import { acquireDirectoryLock } from './lock-file.js';

function result<R>(r: Results<unknown>): QueryResult<R> {
  return { rows: r.rows as R[], rowCount: r.affectedRows ?? r.rows.length };
}

function wrapTransaction(tx: PGliteTransaction): Transaction {
  return {
    async query<R>(text: string, params?: readonly unknown[]) {
      return result<R>(await tx.query(text, params as unknown[]));
    },
    async exec(sql: string) {
      await tx.exec(sql);
    },
  };
}

export function wrapPGlite(db: PGlite, onClose: () => void = () => {}): Database & { pglite: PGlite } {
  return {
    kind: 'embedded',
    pglite: db,
    async query<R>(text: string, params?: readonly unknown[]) {
      return result<R>(await db.query(text, params as unknown[]));
    },
    // PGlite is one connection: its own transaction() holds every other query back until it ends.
    transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(wrapTransaction(tx)));
    },
    async listen(channel: string, onNotify: () => void) {
      const stop = await db.listen(channel, () => onNotify());
      return async () => {
        if (!db.closed) await stop();
      };
    },
    async close() {
      try {
        await db.close();
      } finally {
        onClose();
      }
    },
  };
}

export interface EmbeddedOptions {
  /** Where the database lives; in memory when absent (tests). */
  dataDir?: string;
  /** A dumped, already initialized data directory, so a new database skips initdb. */
  template?: Uint8Array;
}

// PostgreSQL's default 128 MB of shared buffers would all sit in this process; a feature-flag
// database is small, and the flags themselves are served from memory anyway.
const postgresqlconf = ['shared_buffers = 16MB'];

export async function openEmbedded(options: EmbeddedOptions): Promise<Database & { pglite: PGlite }> {
  const { dataDir, template } = options;
  const loadDataDir = template ? new Blob([template]) : undefined;
  if (!dataDir) return wrapPGlite(await PGlite.create({ loadDataDir, postgresqlconf }));

  fs.mkdirSync(dataDir, { recursive: true });
  const release = acquireDirectoryLock(dataDir);
  try {
    const pgdata = path.join(dataDir, 'pgdata');
    const isNew = !fs.existsSync(path.join(pgdata, 'PG_VERSION'));
    if (isNew) fs.rmSync(pgdata, { recursive: true, force: true });
    const db = await PGlite.create({
      dataDir: pgdata,
      loadDataDir: isNew ? loadDataDir : undefined,
      postgresqlconf,
    });
    return wrapPGlite(db, release);
  } catch (error) {
    release();
    throw error;
  }
}
