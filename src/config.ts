import { isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_POOL, type PoolOptions } from './db/pool.js';
import { isOriginEntry } from './http/cors.js';
import type { TrustProxy } from './http/proxy.js';
import { type OutboundRules, parseOutboundRules } from './outbound/targets.js';
import { parseSecretKey } from './secrets.js';

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; when absent the embedded database in `dataDir` is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** PostgreSQL only: the connection pool and its time limits. */
  databasePool: PoolOptions;
  /** A request not answered by then gets 503 instead of keeping its client waiting. */
  requestTimeoutMs: number;
  /** SDK streams (`/api/client/streaming`) one process holds at most; one more is told 429 and polls. */
  streamingMaxConnections: number;
  /** How often an idle stream gets a keep-alive comment (clients reconnect after 60 s of silence). */
  streamingHeartbeatMs: number;
  /** How often safeguards compare their impact metrics with their thresholds (one process checks them all). */
  safeguardCheckIntervalMs: number;
  /** Polling SDKs that can stream are told to (`fetch-mode: streaming`) while this process has room. */
  streamingPromote: boolean;
  /** Public base URL used to build links (invites, password resets). */
  unleashUrl: string;
  logLevel: string;
  /**
   * The origins whose pages may call the SDK paths (`*` for any) until an Admin sets them with
   * `POST /api/admin/ui-config/cors`.
   */
  frontendApiOrigins: string[];
  /** Behind reverse proxies: which of them to believe about the client address (rate limits use it). */
  trustProxy: TrustProxy;
  defaultAdmin: { username: string; password: string };
  /** scrypt's cost (N) for new password hashes. */
  passwordHashCost: number;
  initTokens: { admin: string[]; client: string[]; frontend: string[] };
  /** A state document (E5) imported at start, so a deployment can be declared in a file. */
  importFile: string | undefined;
  /** Remove what the file replaces first (as `drop` of E5). */
  importDropBeforeImport: boolean;
  /** Leave items that exist as they are (as `keep` of E5); otherwise the file's values win. */
  importKeepExisting: boolean;
  /** Encrypts the secrets Flagpole must give back to use (integrations' headers); none: stored as sent. */
  secretKey: Buffer | undefined;
  /** Integrations: which non-public targets are allowed, and how deliveries are tried. */
  integrations: {
    allowed: OutboundRules;
    timeoutMs: number;
    attempts: number;
    /** Before the second attempt; doubled before each one after it. */
    retryDelayMs: number;
  };
  /** What the public SDK paths allow, so tokens that sit in web pages cannot grow the server. */
  sdk: SdkLimits;
}

/** Requests per minute; each is counted per client address and per token, in every process. */
export interface SdkRateLimits {
  clientRegister: number;
  clientMetrics: number;
  frontendRegister: number;
  frontendMetrics: number;
  /** The frontend evaluation (`/api/frontend`): each answer evaluates every flag for the context. */
  frontendFeatures: number;
  /** For one token, on each of the paths above. */
  perToken: number;
}

export interface SdkLimits {
  rateLimits: SdkRateLimits;
  /** Applications neither seen by an SDK nor saved by an Admin for this long are removed. */
  applicationRetentionDays: number;
  /** Instances not seen for this long are removed. */
  instanceRetentionHours: number;
}

/** The first admin's password unless UNLEASH_DEFAULT_ADMIN_PASSWORD says otherwise; known to everyone. */
export const DEFAULT_ADMIN_PASSWORD = 'unleash4all';

/** As long as a statement may run on PostgreSQL (DATABASE_STATEMENT_TIMEOUT_MS). */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_STREAMING_MAX_CONNECTIONS = 10_000;
const DEFAULT_STREAMING_HEARTBEAT_MS = 30_000;
const DEFAULT_SAFEGUARD_CHECK_INTERVAL_MS = 60_000;

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

/**
 * scrypt's cost (N) for password hashes: one takes tens of milliseconds and 16 MiB, which is what
 * makes a stolen hash slow to guess.
 */
const DEFAULT_HASH_COST = 16384;
// Below this a hash is no longer slow to guess at all; above it one hash takes over 64 MiB.
const MIN_HASH_COST = 1024;
const MAX_HASH_COST = 65536;

/** scrypt takes a power of two; lower than the default only where hashes need not resist guessing (tests). */
function passwordHashCost(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_HASH_COST;
  const n = Number(value);
  if (!Number.isInteger(n) || n < MIN_HASH_COST || n > MAX_HASH_COST || (n & (n - 1)) !== 0) {
    throw new Error(
      `PASSWORD_HASH_COST must be a power of two from ${MIN_HASH_COST} to ${MAX_HASH_COST}, got "${value}"`,
    );
  }
  return n;
}

function port(value: string | undefined): number {
  if (value === undefined || value === '') return 4242;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new Error(`PORT must be an integer between 0 and 65535, got "${value}"`);
  }
  return n;
}

// The names proxy-addr knows for ranges of addresses.
const ADDRESS_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range (`10.0.0.0/8`, `fd00::/8`), an IPv4 range with a netmask, or a name. */
function isProxyAddress(entry: string): boolean {
  if (ADDRESS_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (family === 4 && isIP(prefix) === 4) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `true` means one proxy: the client is the address that proxy saw, the last entry of
 * X-Forwarded-For. Believing the whole header (Fastify's `true`) would let any client name its
 * own address by sending the header itself, and so escape every per-address limit.
 */
function trustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') return 1;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = list(text);
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined || entries.length === 0) {
    throw new Error(
      'TRUST_PROXY must be true (one proxy), false, the number of proxies in front of Flagpole, or a ' +
        'comma-separated list of proxy addresses and CIDR ranges (loopback, linklocal and uniquelocal ' +
        `name ranges); "${wrong ?? text}" is none of those`,
    );
  }
  return entries;
}

/** `*` when unset, as Unleash; every entry must be `*` or an origin (`https://app.example.com`). */
function frontendApiOrigins(value: string | undefined): string[] {
  const entries = list(value);
  if (entries.length === 0) return ['*'];
  const wrong = entries.find((entry) => !isOriginEntry(entry));
  if (wrong !== undefined) {
    throw new Error(
      'UNLEASH_FRONTEND_API_ORIGINS must be * or a comma-separated list of origins, each ' +
        `scheme://host[:port] with nothing after it (such as https://app.example.com); "${wrong}" is not one`,
    );
  }
  return entries;
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
      acquireTimeoutMs: positiveInteger(
        'DATABASE_POOL_ACQUIRE_TIMEOUT_MS',
        env.DATABASE_POOL_ACQUIRE_TIMEOUT_MS,
        DEFAULT_POOL.acquireTimeoutMs,
      ),
    },
    requestTimeoutMs: positiveInteger(
      'REQUEST_TIMEOUT_MS',
      env.REQUEST_TIMEOUT_MS,
      DEFAULT_REQUEST_TIMEOUT_MS,
    ),
    streamingMaxConnections: positiveInteger(
      'STREAMING_MAX_CONNECTIONS',
      env.STREAMING_MAX_CONNECTIONS,
      DEFAULT_STREAMING_MAX_CONNECTIONS,
    ),
    streamingHeartbeatMs: positiveInteger(
      'STREAMING_HEARTBEAT_MS',
      env.STREAMING_HEARTBEAT_MS,
      DEFAULT_STREAMING_HEARTBEAT_MS,
    ),
    streamingPromote: flag('STREAMING_PROMOTE', env.STREAMING_PROMOTE, false),
    safeguardCheckIntervalMs: positiveInteger(
      'SAFEGUARD_CHECK_INTERVAL_MS',
      env.SAFEGUARD_CHECK_INTERVAL_MS,
      DEFAULT_SAFEGUARD_CHECK_INTERVAL_MS,
    ),
    unleashUrl: (env.UNLEASH_URL || `http://localhost:${p}`).replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL || 'info',
    frontendApiOrigins: frontendApiOrigins(env.UNLEASH_FRONTEND_API_ORIGINS),
    trustProxy: trustProxy(env.TRUST_PROXY),
    defaultAdmin: {
      username: env.UNLEASH_DEFAULT_ADMIN_USERNAME || 'admin',
      password: env.UNLEASH_DEFAULT_ADMIN_PASSWORD || DEFAULT_ADMIN_PASSWORD,
    },
    passwordHashCost: passwordHashCost(env.PASSWORD_HASH_COST),
    initTokens: {
      admin: list(env.INIT_ADMIN_API_TOKENS),
      client: [...list(env.INIT_CLIENT_API_TOKENS), ...list(env.INIT_BACKEND_API_TOKENS)],
      frontend: list(env.INIT_FRONTEND_API_TOKENS),
    },
    importFile: env.IMPORT_FILE ? path.resolve(env.IMPORT_FILE) : undefined,
    importDropBeforeImport: flag('IMPORT_DROP_BEFORE_IMPORT', env.IMPORT_DROP_BEFORE_IMPORT, false),
    importKeepExisting: flag('IMPORT_KEEP_EXISTING', env.IMPORT_KEEP_EXISTING, false),
    secretKey: env.FLAGPOLE_SECRET_KEY ? parseSecretKey(env.FLAGPOLE_SECRET_KEY) : undefined,
    integrations: {
      allowed: parseOutboundRules(env.INTEGRATION_ALLOWED_HOSTS, 'INTEGRATION_ALLOWED_HOSTS'),
      timeoutMs: positiveInteger('INTEGRATION_TIMEOUT_MS', env.INTEGRATION_TIMEOUT_MS, 10_000),
      attempts: positiveInteger('INTEGRATION_ATTEMPTS', env.INTEGRATION_ATTEMPTS, 3),
      retryDelayMs: positiveInteger('INTEGRATION_RETRY_DELAY_MS', env.INTEGRATION_RETRY_DELAY_MS, 5_000),
    },
    sdk: sdkLimits(env),
  };
}

/** Unleash's variable names and defaults where it has them (client 6,000 a minute). */
function sdkLimits(env: Env): SdkLimits {
  const integer = (name: string, fallback: number) => positiveInteger(name, env[name], fallback);
  const perMinute = integer;
  return {
    rateLimits: {
      clientRegister: perMinute('REGISTER_CLIENT_RATE_LIMIT_PER_MINUTE', 6000),
      clientMetrics: perMinute('CLIENT_METRICS_RATE_LIMIT_PER_MINUTE', 6000),
      // A browser registers once and posts metrics about once a minute: 120 is a whole office
      // behind one address, and what one address can make the server store stays small.
      frontendRegister: perMinute('REGISTER_FRONTEND_RATE_LIMIT_PER_MINUTE', 120),
      frontendMetrics: perMinute('FRONTEND_METRICS_RATE_LIMIT_PER_MINUTE', 120),
      frontendFeatures: perMinute('FRONTEND_API_RATE_LIMIT_PER_MINUTE', 6000),
      perToken: perMinute('SDK_TOKEN_RATE_LIMIT_PER_MINUTE', 6000),
    },
    applicationRetentionDays: integer('SDK_APPLICATION_RETENTION_DAYS', 30),
    instanceRetentionHours: integer('SDK_INSTANCE_RETENTION_HOURS', 48),
  };
}
