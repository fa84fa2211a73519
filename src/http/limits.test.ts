import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countEvents, createFeature, startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await createFeature(server, 'limited');
});
afterAll(() => server.close());

const admin = () => ({ token: server.adminToken });

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
      const res = await server.request('POST', `/api/admin/projects/default/${path}`, { ...admin(), body });
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
      ...admin(),
      body: { features: ['limited', ...names.slice(0, 999)], stale: true },
    });
    expect(thousand.status).not.toBe(400);
  });

  it('refuse a JSON Patch of more than 100 operations, on a feature and on its variants', async () => {
    const ops = Array.from({ length: 101 }, () => ({ op: 'replace', path: '/description', value: 'x' }));
    const feature = await server.request('PATCH', '/api/admin/projects/default/features/limited', {
      ...admin(),
      body: ops,
    });
    expect(feature.status).toBe(400);
    expect(feature.body.details).toEqual([
      { path: 'body', message: 'The `body` property must NOT have more than 100 items.' },
    ]);
    const variants = await server.request(
      'PATCH',
      '/api/admin/projects/default/features/limited/environments/development/variants',
      { ...admin(), body: Array.from({ length: 101 }, () => ({ op: 'test', path: '/0/name', value: 'x' })) },
    );
    expect(variants.status).toBe(400);
    expect(variants.body.name).toBe('ValidationError');
    expect(variants.body.details).toHaveLength(1);
    const read = await server.request('GET', '/api/admin/projects/default/features/limited', admin());
    expect(read.body.description).not.toBe('x');
    const hundred = await server.request('PATCH', '/api/admin/projects/default/features/limited', {
      ...admin(),
      body: ops.slice(0, 100),
    });
    expect(hundred.status).toBe(200);
  });

  it('refuse over 1,000 legal values of a context field and over 100 overrides of a variant', async () => {
    const legalValues = Array.from({ length: 1001 }, (_, i) => ({ value: `v${i}` }));
    const context = await server.request('POST', '/api/admin/context', {
      ...admin(),
      body: { name: 'tooMany', legalValues },
    });
    expect(context.status).toBe(400);
    expect(context.body.details).toEqual([
      { path: 'legalValues', message: 'The `legalValues` property must NOT have more than 1000 items.' },
    ]);
    expect((await server.request('GET', '/api/admin/context/tooMany', admin())).status).toBe(404);

    const overrides = Array.from({ length: 101 }, (_, i) => ({ contextName: `c${i}`, values: ['a'] }));
    const variants = await server.request(
      'PUT',
      '/api/admin/projects/default/features/limited/environments/development/variants',
      { ...admin(), body: [{ name: 'blue', weight: 1000, overrides }] },
    );
    expect(variants.status).toBe(400);
    expect(variants.body.details).toEqual([
      { path: '0.overrides', message: 'The `0.overrides` property must NOT have more than 100 items.' },
    ]);
  });
});
