import path from 'node:path';
import { DEFAULT_POOL, type PoolOptions } from './db/pool.js';

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; when absent the embedded database in `dataDir` is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** PostgreSQL only: the connection pool and its time limits. */
  databasePool: PoolOptions;
  /** Public base URL used to build links (invites, password resets). */
  unleashUrl: string;
  logLevel: string;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (login rate limits use it). */
  trustProxy: boolean;
  defaultAdmin: { username: string; password: string };
  initTokens: { admin: string[]; client: string[]; frontend: string[] };
  /** A state document (E5) imported at start, so a deployment can be declared in a file. */
  importFile: string | undefined;
  /** Remove what the file replaces first (as `drop` of E5). */
  importDropBeforeImport: boolean;
  /** Leave items that exist as they are (as `keep` of E5); otherwise the file's values win. */
  importKeepExisting: boolean;
}

type Env = Record<string, string | undefined>;

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

function port(value: string | undefined): number {
  if (value === undefined || value === '') return 4242;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new Error(`PORT must be an integer between 0 and 65535, got "${value}"`);
  }
  return n;
}

/** Reads every start-up variable once; Unleash's names so existing deployments carry over. */
export function loadConfig(env: Env = process.env): Config {
  const p = port(env.PORT);
  return {
    port: p,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databasePool: {
      max: positiveInteger('DATABASE_POOL_MAX', env.DATABASE_POOL_MAX, DEFAULT_POOL.max),
      idleTimeoutMs: positiveInteger(
        'DATABASE_POOL_IDLE_TIMEOUT_MS',
        env.DATABASE_POOL_IDLE_TIMEOUT_MS,
        DEFAULT_POOL.idleTimeoutMs,
      ),
      statementTimeoutMs: positiveInteger(
        'DATABASE_STATEMENT_TIMEOUT_MS',
        env.DATABASE_STATEMENT_TIMEOUT_MS,
        DEFAULT_POOL.statementTimeoutMs,
      ),
      idleInTransactionTimeoutMs: positiveInteger(
        'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
        env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        DEFAULT_POOL.idleInTransactionTimeoutMs,
      ),
    },
    unleashUrl: (env.UNLEASH_URL || `http://localhost:${p}`).replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: env.TRUST_PROXY === 'true',
    defaultAdmin: {
      username: env.UNLEASH_DEFAULT_ADMIN_USERNAME || 'admin',
      password: env.UNLEASH_DEFAULT_ADMIN_PASSWORD || 'unleash4all',
    },
    initTokens: {
      admin: list(env.INIT_ADMIN_API_TOKENS),
      client: [...list(env.INIT_CLIENT_API_TOKENS), ...list(env.INIT_BACKEND_API_TOKENS)],
      frontend: list(env.INIT_FRONTEND_API_TOKENS),
    },
    importFile: env.IMPORT_FILE ? path.resolve(env.IMPORT_FILE) : undefined,
    importDropBeforeImport: flag('IMPORT_DROP_BEFORE_IMPORT', env.IMPORT_DROP_BEFORE_IMPORT, false),
    importKeepExisting: flag('IMPORT_KEEP_EXISTING', env.IMPORT_KEEP_EXISTING, false),
  };
}
