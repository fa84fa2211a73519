import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import type { AppContext } from '../src/app-context.js';
import { prepareDatabase } from '../src/bootstrap.js';
import { createContext } from '../src/compose.js';
import { type Config, loadConfig } from '../src/config.js';
import { openPostgres } from '../src/db/postgres.js';
import type { App } from '../src/http/route.js';
import { type Logger, silentLogger } from '../src/log.js';
import { markChanged } from '../src/sync/changes.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export interface RequestOptions {
  /** Sent as the Authorization header. */
  token?: string;
  cookie?: string;
  /** Serialized as JSON with `Content-Type: application/json` unless `contentType` says otherwise. */
  body?: unknown;
  contentType?: string | null;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export interface TestServer {
  app: App;
  ctx: AppContext;
  database: TestDatabase;
  /** An admin API token created at start-up (INIT_ADMIN_API_TOKENS). */
  adminToken: string;
  request<T = any>(method: string, url: string, options?: RequestOptions): Promise<Reply<T>>;
  close(): Promise<void>;
}

export function isPostgres(): boolean {
  return inject('postgresUrl') !== '';
}

/** Sends requests to an app the way a client would, and reads the answers. */
function requester(app: App): TestServer['request'] {
  return async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = options.token;
    if (options.cookie !== undefined) headers.cookie = options.cookie;
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const contentType =
      options.contentType === undefined
        ? payload !== undefined
          ? 'application/json'
          : null
        : options.contentType;
    if (contentType !== null) headers['content-type'] = contentType;
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers,
      payload,
      remoteAddress: options.remoteAddress,
    });
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, body: body as never, headers: res.headers, text: res.body };
  };
}

/** A fresh database (cloned from the migrated template) and an app on it, for one test file. */
export async function startTestServer(
  env: Record<string, string> = {},
  log: Logger = silentLogger,
): Promise<TestServer> {
  const database = await createTestDatabase({
    postgresUrl: inject('postgresUrl') || undefined,
    postgresTemplate: inject('postgresTemplate') || undefined,
    embeddedTemplateTar: inject('embeddedTemplateTar') || undefined,
  });
  const adminToken = `*:*.${randomBytes(28).toString('hex')}`;
  // The cheapest password hash: tests sign in thousands of times, and at the production cost the
  // hashing was a large part of the suite's time. What is tested about hashing holds at any cost.
  const config: Config = loadConfig({
    INIT_ADMIN_API_TOKENS: adminToken,
    PASSWORD_HASH_COST: '1024',
    ...env,
  });
  const ctx = createContext(config, database.db, log);
  await prepareDatabase(ctx);
  const app = await buildApp(ctx);

  return {
    app,
    ctx,
    database,
    adminToken,
    request: requester(app),
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

export interface Replica {
  app: App;
  ctx: AppContext;
  request: TestServer['request'];
  close(): Promise<void>;
}

/**
 * Another Flagpole on the same PostgreSQL database as `server` (in this process, with its own
 * pool, caches and sync), optionally through another connection string — a proxy the test controls.
 */
export async function startReplica(server: TestServer, url = server.database.url): Promise<Replica> {
  if (!url) throw new Error('replicas share a PostgreSQL database');
  const db = await openPostgres(url, { pool: { max: 4 }, log: silentLogger });
  const ctx = createContext(server.ctx.config, db, silentLogger);
  const app = await buildApp(ctx);
  return {
    app,
    ctx,
    request: requester(app),
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/**
 * A write straight to the database — a state the API cannot make, or a shortcut — announced to the
 * caches as a change of everything, as every write through the API is; resolves once they hold it.
 */
export async function writeDirectly(server: TestServer, sql: string, params: unknown[] = []): Promise<void> {
  await server.ctx.db.transaction(async (tx) => {
    await tx.query(sql, params);
    markChanged(tx, { scopes: ['model', 'identity'] });
  });
  await server.ctx.sync.settled();
}

export const STRONG_PASSWORD = 'Correct-Horse-9';

let counter = 0;

export interface TestUser {
  id: number;
  username: string;
  password: string;
  /** A personal access token acting as the user. */
  pat: string;
  cookie: string;
}

/** Logs in and returns the session cookie (`unleash-session=…`). */
export async function login(
  server: TestServer,
  username: string,
  password: string,
): Promise<Reply & { cookie: string }> {
  const res = await server.request('POST', '/auth/simple/login', { body: { username, password } });
  const setCookie = String(res.headers['set-cookie'] ?? '');
  return { ...res, cookie: setCookie.split(';')[0]! };
}

/** A user with the given root role, signed in, holding a PAT. */
export async function createUser(
  server: TestServer,
  rootRole: number | string = 3,
  username?: string,
): Promise<TestUser> {
  counter += 1;
  const name = username ?? `user${counter}-${randomBytes(3).toString('hex')}`;
  const created = await server.request('POST', '/api/admin/user-admin', {
    token: server.adminToken,
    body: { username: name, email: `${name}@example.com`, name, password: STRONG_PASSWORD, rootRole },
  });
  if (created.status !== 201) throw new Error(`creating user failed: ${created.status} ${created.text}`);
  const session = await login(server, name, STRONG_PASSWORD);
  if (session.status !== 200) throw new Error(`login failed: ${session.status} ${session.text}`);
  const pat = await server.request('POST', '/api/admin/user/tokens', {
    cookie: session.cookie,
    body: { description: 'test', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
  });
  if (pat.status !== 201) throw new Error(`creating PAT failed: ${pat.status} ${pat.text}`);
  return {
    id: created.body.id,
    username: name,
    password: STRONG_PASSWORD,
    pat: pat.body.secret,
    cookie: session.cookie,
  };
}

/** How many audit events there are, in all or of one type. */
export async function countEvents(server: TestServer, type?: string): Promise<number> {
  const res = await server.request(
    'GET',
    `/api/admin/events${type ? `?type=${encodeURIComponent(type)}` : ''}`,
    {
      token: server.adminToken,
    },
  );
  return res.body.totalEvents;
}

/** Creates a project with the admin token. */
export async function createProject(server: TestServer, id: string): Promise<void> {
  const res = await server.request('POST', '/api/admin/projects', {
    token: server.adminToken,
    body: { id, name: id },
  });
  if (res.status !== 201) throw new Error(`creating project ${id}: ${res.status} ${res.text}`);
}

/** Creates a feature with the admin token. */
export async function createFeature(
  server: TestServer,
  name: string,
  project = 'default',
  body: Record<string, unknown> = {},
): Promise<void> {
  const res = await server.request('POST', `/api/admin/projects/${project}/features`, {
    token: server.adminToken,
    body: { name, ...body },
  });
  if (res.status !== 201) throw new Error(`creating feature ${name}: ${res.status} ${res.text}`);
}

/** The newest audit event of a type. */
export async function lastEvent(server: TestServer, type: string): Promise<any> {
  const res = await server.request('GET', `/api/admin/events?type=${encodeURIComponent(type)}&limit=1`, {
    token: server.adminToken,
  });
  return res.body.events[0];
}
