/**
 * The PostgreSQL connection pool's settings (config.ts reads them from the environment). Apart from
 * database.ts, so that postgres.ts, which database.ts loads on demand, does not import it back.
 */
export interface PoolOptions {
  max: number;
  idleTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /** How long a query waits for a free connection before it fails (503), rather than for ever. */
  acquireTimeoutMs: number;
}

export const DEFAULT_POOL: PoolOptions = {
  max: 10,
  idleTimeoutMs: 30_000,
  statementTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 60_000,
  acquireTimeoutMs: 10_000,
};

/** Every connection of the pool stayed in use for as long as a query may wait for one. */
export class PoolExhaustedError extends Error {
  override name = 'PoolExhaustedError';

  constructor(size: number, waitedMs: number) {
    super(`its ${size} database connection${size === 1 ? '' : 's'} stayed in use for ${waitedMs} ms`);
  }
}
