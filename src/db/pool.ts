/**
 * The PostgreSQL connection pool's settings (config.ts reads them from the environment). Apart from
 * database.ts, so that postgres.ts, which database.ts loads on demand, does not import it back.
 */
export interface PoolOptions {
  max: number;
  idleTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

export const DEFAULT_POOL: PoolOptions = {
  max: 10,
  idleTimeoutMs: 30_000,
  statementTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 60_000,
};
