import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';

export type Row = Record<string, unknown>;

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** What a store needs: the database itself or an open transaction. */
export interface Queryable {
  query<R = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

export interface Transaction extends Queryable {
  /** Runs a script of several statements (migrations only). */
  exec(sql: string): Promise<void>;
}

/**
 * One pool-shaped object over either back-end, so nothing above `db/` knows which one it has.
 * `transaction` is the only way to group statements: PGlite must never see `BEGIN` as text.
 */
export interface Database extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Calls `onNotify` on every NOTIFY on `channel`; resolves to a function that stops listening. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Written by `npm run build` (at install): an initialized, migrated embedded database. */
export const BUNDLED_TEMPLATE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'pglite-template.tgz',
);

export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(config.databaseUrl);
  }
  const { openEmbedded } = await import('./embedded.js');
  const template = existsSync(BUNDLED_TEMPLATE) ? readFileSync(BUNDLED_TEMPLATE) : undefined;
  return openEmbedded({ dataDir: path.join(config.dataDir), template });
}
