import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../test/requests.js';
import {
  countEvents,
  createFeature,
  isPostgres,
  startTestServer,
  type TestServer,
} from '../../test/server.js';
import { buildApp } from '../app.js';
import { createContext } from '../compose.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/open.js';
import { silentLogger } from '../log.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await createFeature(server, 'limited');
});
afterAll(() => server.close());

interface JsonSchema {
  $ref?: string;
  type?: string;
  items?: JsonSchema;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** Where in a schema an array may be as long as the sender likes. */
function unboundedArrays(
  schema: JsonSchema | undefined,
  where: string,
  refs: Record<string, JsonSchema>,
): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (schema.$ref) return unboundedArrays(refs[schema.$ref.split('/').pop()!], where, refs);
  const found: string[] = [];
  if (schema.type === 'array' || schema.items) {
    if (schema.maxItems === undefined) found.push(where);
    found.push(...unboundedArrays(schema.items, `${where}[]`, refs));
  }
  for (const [key, list] of Object.entries({
    anyOf: schema.anyOf,
    oneOf: schema.oneOf,
    allOf: schema.allOf,
  })) {
    for (const [i, s] of (list ?? []).entries())
      found.push(...unboundedArrays(s, `${where}|${key}${i}`, refs));
  }
  for (const [name, s] of Object.entries(schema.properties ?? {})) {
    found.push(...unboundedArrays(s, `${where}.${name}`, refs));
  }
  if (typeof schema.additionalProperties === 'object') {
    found.push(...unboundedArrays(schema.additionalProperties, `${where}.*`, refs));
  }
  for (const s of Object.values(schema.patternProperties ?? {}))
    found.push(...unboundedArrays(s, `${where}.*`, refs));
  return found;
}

describe('request bodies', () => {
  it('bound every array they take (maxItems), as the OpenAPI document shows', async () => {
    const doc = (await server.request('GET', '/docs/json')).body;
    const refs = doc.components?.schemas ?? {};
    const unbounded: string[] = [];
    let bodies = 0;
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        for (const content of Object.values<any>(operation.requestBody?.content ?? {})) {
          bodies++;
          unbounded.push(...unboundedArrays(content.schema, `${method.toUpperCase()} ${path} body`, refs));
        }
      }
    }
    expect(bodies).toBeGreaterThan(50);
    expect(unbounded).toEqual([]);
  });

  it('refuse a name list over 1,000 with 400 and details, writing nothing', async () => {
    const names = Array.from({ length: 1001 }, (_, i) => `f${i}`);
    const events = await countEvents(server);
    for (const [path, body] of [
      ['stale', { features: names, stale: true }],
      ['archive', { features: names }],
      ['revive', { features: names }],
      ['delete', { features: names }],
    ] as const) {
      const res = await server.request('POST', `/api/admin/projects/default/${path}`, {
        ...admin(server),
        body,
      });
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'ValidationError',
        message: 'The `features` property must NOT have more than 1000 items.',
        details: [
          { path: 'features', message: 'The `features` property must NOT have more than 1000 items.' },
        ],
      });
    }
    expect(await countEvents(server)).toBe(events);
    // A thousand is fine (names that do not exist are a 404 of their own, not a 400).
    const thousand = await server.request('POST', '/api/admin/projects/default/stale', {
      ...admin(server),
      body: { features: ['limited', ...names.slice(0, 999)], stale: true },
    });
    expect(thousand.status).not.toBe(400);
  });

  it('refuse a JSON Patch of more than 100 operations, on a feature and on its variants', async () => {
    const ops = Array.from({ length: 101 }, () => ({ op: 'replace', path: '/description', value: 'x' }));
    const feature = await server.request('PATCH', '/api/admin/projects/default/features/limited', {
      ...admin(server),
      body: ops,
    });
    expect(feature.status).toBe(400);
    expect(feature.body.details).toEqual([
      { path: 'body', message: 'The `body` property must NOT have more than 100 items.' },
    ]);
    const variants = await server.request(
      'PATCH',
      '/api/admin/projects/default/features/limited/environments/development/variants',
      {
        ...admin(server),
        body: Array.from({ length: 101 }, () => ({ op: 'test', path: '/0/name', value: 'x' })),
      },
    );
    expect(variants.status).toBe(400);
    expect(variants.body.name).toBe('ValidationError');
    expect(variants.body.details).toHaveLength(1);
    const read = await server.request('GET', '/api/admin/projects/default/features/limited', admin(server));
    expect(read.body.description).not.toBe('x');
    const hundred = await server.request('PATCH', '/api/admin/projects/default/features/limited', {
      ...admin(server),
      body: ops.slice(0, 100),
    });
    expect(hundred.status).toBe(200);
  });

  it('refuse over 1,000 legal values of a context field and over 100 overrides of a variant', async () => {
    const legalValues = Array.from({ length: 1001 }, (_, i) => ({ value: `v${i}` }));
    const context = await server.request('POST', '/api/admin/context', {
      ...admin(server),
      body: { name: 'tooMany', legalValues },
    });
    expect(context.status).toBe(400);
    expect(context.body.details).toEqual([
      { path: 'legalValues', message: 'The `legalValues` property must NOT have more than 1000 items.' },
    ]);
    expect((await server.request('GET', '/api/admin/context/tooMany', admin(server))).status).toBe(404);

    const overrides = Array.from({ length: 101 }, (_, i) => ({ contextName: `c${i}`, values: ['a'] }));
    const variants = await server.request(
      'PUT',
      '/api/admin/projects/default/features/limited/environments/development/variants',
      { ...admin(server), body: [{ name: 'blue', weight: 1000, overrides }] },
    );
    expect(variants.status).toBe(400);
    expect(variants.body.details).toEqual([
      { path: '0.overrides', message: 'The `0.overrides` property must NOT have more than 100 items.' },
    ]);
  });
});

describe('a body over 1 MiB', () => {
  it('is refused with 413 and the error body, JSON or not, and changes nothing', async () => {
    const events = await countEvents(server);
    const big = 'x'.repeat(1024 * 1024 + 1);
    for (const [url, body, contentType] of [
      [
        '/api/admin/projects/default/features',
        JSON.stringify({ name: 'huge', description: big }),
        'application/json',
      ],
      [`/api/admin/projects/default/features/limited/environments/development/off`, big, 'text/plain'],
    ] as const) {
      const res = await server.request('POST', url, { ...admin(server), body, contentType });
      expect(res.status, url).toBe(413);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'PayloadTooLargeError',
        message: 'The request body is larger than the limit of 1048576 bytes.',
      });
    }
    expect(await countEvents(server)).toBe(events);
  });
});

/** Holds the users table until the returned function is called: requests reading it wait. */
async function holdUsersTable(target: TestServer): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = target.ctx.db.transaction(async (tx) => {
    await tx.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await holding;
  };
}

describe('a request that takes too long', () => {
  it('answers 503 ServiceUnavailableError after REQUEST_TIMEOUT_MS instead of hanging', async () => {
    const slow = await startTestServer({ REQUEST_TIMEOUT_MS: '500' });
    try {
      const release = await holdUsersTable(slow);
      const started = Date.now();
      const res = await slow.request('GET', '/api/admin/user-admin', { token: slow.adminToken });
      const waited = Date.now() - started;
      await release();
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'ServiceUnavailableError',
        message: expect.stringMatching(/did not finish in time.*try again/),
      });
      expect(waited).toBeGreaterThanOrEqual(450);
      expect(waited).toBeLessThan(5000);
      // Once the database is free the same request is answered.
      const after = await slow.request('GET', '/api/admin/user-admin', { token: slow.adminToken });
      expect(after.status).toBe(200);
    } finally {
      await slow.close();
    }
  });
});

describe.runIf(isPostgres())('the PostgreSQL connection pool', () => {
  it('holds DATABASE_POOL_MAX connections; a request waiting DATABASE_POOL_ACQUIRE_TIMEOUT_MS for one gets 503', async () => {
    const config = loadConfig({
      DATABASE_URL: server.database.url,
      DATABASE_POOL_MAX: '1',
      DATABASE_POOL_ACQUIRE_TIMEOUT_MS: '300',
      INIT_ADMIN_API_TOKENS: server.adminToken,
    });
    expect(config.databasePool).toMatchObject({ max: 1, acquireTimeoutMs: 300 });
    const db = await openDatabase(config, silentLogger);
    const ctx = createContext(config, db, silentLogger);
    const app = await buildApp(ctx);
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const isHeld = new Promise<void>((resolve) => (held = resolve));
      // The pool's one connection, taken.
      const holding = db.transaction(async () => {
        held();
        await released;
      });
      await isHeld;
      const started = Date.now();
      const res = await app.inject({
        method: 'GET',
        url: '/api/admin/user-admin',
        headers: { authorization: server.adminToken },
      });
      const waited = Date.now() - started;
      release();
      await holding;
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        id: expect.any(String),
        name: 'ServiceUnavailableError',
        message: expect.stringMatching(/1 database connection.*300 ms.*try again/i),
      });
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(5000);
      const after = await app.inject({
        method: 'GET',
        url: '/api/admin/user-admin',
        headers: { authorization: server.adminToken },
      });
      expect(after.statusCode).toBe(200);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
