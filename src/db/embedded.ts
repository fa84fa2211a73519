import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  PGlite,
  type PGliteOptions,
  type Transaction as PGliteTransaction,
  type Results,
} from '@electric-sql/pglite';
import type { Database, QueryResult } from './database.js';
import { type Connection, createDatabase } from './kernel.js';
import { acquireDirectoryLock } from './lock-file.js';
import { extractTarGz } from './tar.js';

function result<R>(r: Results<unknown>): QueryResult<R> {
  return { rows: r.rows as R[], rowCount: r.affectedRows ?? r.rows.length };
}

/** How long statements may run one after another before the event loop gets a turn. */
const SLICE_MS = 10;
let sliceStartedAt = performance.now();

/**
 * PGlite runs a statement within the calling task and resolves at once, so a transaction of many
 * statements (or a queue of queries) goes on in microtasks without the event loop ever turning:
 * no other request, not even /health, is answered until the last one. Every SLICE_MS of them,
 * the next statement waits for one turn of the loop.
 */
async function takeTurns(): Promise<void> {
  if (performance.now() - sliceStartedAt < SLICE_MS) return;
  await new Promise((resolve) => setImmediate(resolve));
  sliceStartedAt = performance.now();
}

function connectionOf(tx: PGliteTransaction): Connection {
  return {
    async query<R>(text: string, params?: readonly unknown[]) {
      await takeTurns();
      return result<R>(await tx.query(text, params as unknown[]));
    },
    async exec(sql: string) {
      await tx.exec(sql);
    },
  };
}

export function wrapPGlite(db: PGlite, onClose: () => void = () => {}): Database & { pglite: PGlite } {
  const database = createDatabase({
    kind: 'embedded',
    async query<R>(text: string, params?: readonly unknown[]) {
      await takeTurns();
      return result<R>(await db.query(text, params as unknown[]));
    },
    // PGlite is one connection: its own transaction() holds every other query back until it ends,
    // so every transaction already sees one unchanging state and isolation options change nothing.
    inTransaction(_options, fn) {
      return db.transaction((tx) => fn(connectionOf(tx)));
    },
    async listen(channel, onNotify) {
      const stop = await db.listen(channel, (payload) => onNotify(payload));
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
  });
  return Object.assign(database, { pglite: db });
}

/**
 * What PGlite loads for every database it opens, its WebAssembly compiled: given by a process that
 * opens many (the tests, a database a file), which then reads and compiles it once.
 */
export type EmbeddedEngine = Required<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>>;

export interface EmbeddedOptions {
  /** Where the database lives; in memory when absent (tests). */
  dataDir?: string;
  /** A dumped, already initialized data directory, so a new database skips initdb; read when needed. */
  template?: () => Uint8Array | undefined;
  engine?: EmbeddedEngine;
}

// The embedded PostgreSQL lives in this process's memory, and a feature-flag database is small:
// flags and credentials are served from Flagpole's own caches, so PostgreSQL's buffers only meet
// writes and reloads (its files stay in the operating system's page cache besides). Its shared
// memory is sized for one connection rather than the default hundred.
// A new WAL segment (one every 16 MB of changes) is not filled with zeros first: that writes 16 MB
// in this thread (in memory, growing the file by a copy of it at each step) and held the event
// loop 250–400 ms in whichever large write crossed into a new segment.
const postgresqlconf = ['shared_buffers = 4MB', 'max_connections = 5', 'wal_init_zero = off'];

/**
 * A new database directory appears whole or not at all: unpacked beside its place, then renamed
 * into it. Unpacked in place, a first start killed after PG_VERSION was written but before the
 * last files would leave a directory every later start takes for a database and fails to open.
 */
function unpackWhole(dump: Uint8Array, pgdata: string): void {
  const unpacking = `${pgdata}.unpacking`;
  fs.rmSync(unpacking, { recursive: true, force: true });
  extractTarGz(dump, unpacking);
  fs.renameSync(unpacking, pgdata);
}

export async function openEmbedded(options: EmbeddedOptions): Promise<Database & { pglite: PGlite }> {
  const { dataDir, template, engine } = options;
  if (!dataDir) {
    const dump = template?.();
    return wrapPGlite(
      await PGlite.create({ loadDataDir: dump && new Blob([dump]), postgresqlconf, ...engine }),
    );
  }

  fs.mkdirSync(dataDir, { recursive: true });
  const release = acquireDirectoryLock(dataDir);
  try {
    const pgdata = path.join(dataDir, 'pgdata');
    const isNew = !fs.existsSync(path.join(pgdata, 'PG_VERSION'));
    const dump = isNew ? template?.() : undefined;
    if (isNew) fs.rmSync(pgdata, { recursive: true, force: true });
    if (dump) unpackWhole(dump, pgdata);
    const db = await PGlite.create({ dataDir: pgdata, postgresqlconf });
    return wrapPGlite(db, release);
  } catch (error) {
    release();
    throw error;
  }
}
