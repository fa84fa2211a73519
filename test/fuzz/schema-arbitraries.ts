import fc from 'fast-check';
import type { JsonSchema } from './openapi.js';
import { FixturePick, JsonEntries, RawJson, toJsonText } from './values.js';

/**
 * Arbitraries derived from a JSON schema: `valid` values the schema accepts (strings with unicode,
 * control characters and the odd NUL among them, since the schema accepts those too), and `faulty`
 * values with exactly one thing wrong somewhere inside: a field missing or extra, a wrong type, a
 * string or array far too long, a number beyond int4, bigint or 2^53, a key such as `__proto__`.
 * A property named like one of the fixture's pools (`projectId`, `segments`, …) often takes one
 * of its values, so requests reach past "does not exist" into the rules behind it.
 */
export interface SchemaArbitraries {
  valid(schema: JsonSchema, name?: string): fc.Arbitrary<unknown>;
  faulty(schema: JsonSchema, name?: string): fc.Arbitrary<unknown>;
}

const INT4_MAX = 2 ** 31 - 1;
const INT4_MIN = -(2 ** 31);

/** Single UTF-16 units that have broken servers: NUL and other controls, lone surrogates, BOM. */
const NASTY_UNITS = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u200b',
  '\u202e',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\uffff',
  '\\',
  '"',
  "'",
  '%',
  '/',
  '.',
  '\n',
  '\t',
];

/** Whole strings that mean something to some layer: paths, SQL, templates, encodings. */
const NASTY_STRINGS = [
  '',
  ' ',
  '..',
  '../../etc/passwd',
  '%00',
  '%FF',
  '\u0000',
  'a\u0000b',
  "'; DROP TABLE users; --",
  '\u0024{7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '💩'.repeat(30),
  'e\u0301'.repeat(20),
  '\ud83d',
  'NaN',
  '-0',
  '1e400',
  '99999999999999999999',
  'null',
  'true',
  '__proto__',
  'constructor',
];

const unit = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 14 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 3 },
  { arbitrary: fc.constantFrom(...NASTY_UNITS), weight: 2 },
);

function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit, minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) });
}

/** A long run of one character: shrinks by length, cheap to make at any size. */
function longString(min: number, max: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min, max }), fc.constantFrom('a', 'é', '💩', '\u0000', ' '))
    .map(([n, c]) => c.repeat(Math.ceil(n / c.length)));
}

const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  '',
  'x',
  [],
  {},
  [null],
  { a: 1 },
  '1',
  'true',
];

const EXTREME_NUMBERS: unknown[] = [
  INT4_MAX + 1,
  INT4_MIN - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  2 ** 63,
  new RawJson('9223372036854775807'),
  new RawJson('-9223372036854775809'),
  1e20,
  -1e20,
  1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  0.5,
  -0.5,
  -1,
  0,
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('99999999999999999999999999999'),
  new RawJson('1.0000000000000000000000001'),
  new RawJson('-0'),
];

/** Keys a JavaScript server must not treat as anything but data. */
const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  '\u0000',
  'a.b',
  '$where',
  'k'.repeat(1000),
];

/**
 * Numbers the schema accepts that storage may not: its own bounds, and where it has none the
 * bounds of int4, bigint and exact doubles, and beyond. Valid values reach the service, so these
 * find the columns whose type is narrower than the schema.
 */
function edgeNumbers(schema: JsonSchema, integer: boolean): number[] {
  const min = schema.minimum ?? Number.NEGATIVE_INFINITY;
  const max = schema.maximum ?? Number.POSITIVE_INFINITY;
  const candidates = [
    schema.minimum,
    schema.maximum,
    0,
    -1,
    INT4_MAX,
    INT4_MAX + 1,
    INT4_MIN,
    INT4_MIN - 1,
    2 ** 53 - 1,
    -(2 ** 53 - 1),
    2 ** 63,
    1e20,
    -1e20,
    ...(integer ? [] : [0.5, 1e308, -1e308, Number.MIN_VALUE]),
  ];
  return [...new Set(candidates)].filter(
    (n): n is number => n !== undefined && n >= min && n <= max && (!integer || Number.isInteger(n)),
  );
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  return [];
}

/** Dates the format accepts: mostly near now, some at its edges and in other time zones. */
function dateTime(): fc.Arbitrary<string> {
  const near = fc
    .date({
      min: new Date('1971-01-01T00:00:00Z'),
      max: new Date('2200-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString());
  const edges = fc.constantFrom(
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '1970-01-01T00:00:00Z',
    '2000-02-29T12:00:00+14:00',
    '2000-01-01T00:00:00-12:00',
    '2100-01-01T00:00:00.123456789Z',
  );
  return fc.oneof({ arbitrary: near, weight: 4 }, edges);
}

const BAD_DATES = [
  'not a date',
  '2024-13-45T25:61:61Z',
  '0000-00-00T00:00:00Z',
  '99999-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-19T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '1970-01-01T00:00:00+99:99',
  '2024-01-01',
  '',
];

export function schemaArbitraries(poolNames: ReadonlySet<string>): SchemaArbitraries {
  const fromPool = (name: string | undefined): fc.Arbitrary<unknown> | undefined =>
    name && poolNames.has(name) ? fc.nat(7).map((i) => new FixturePick(name, i)) : undefined;

  function pattern(schema: JsonSchema): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0;
    const max = Math.max(min, Math.min(schema.maxLength ?? 40, 40));
    return fc.stringMatching(new RegExp(schema.pattern!), { maxLength: max }).filter((s) => s.length >= min);
  }

  function validOfType(type: string, schema: JsonSchema, name: string | undefined): fc.Arbitrary<unknown> {
    switch (type) {
      case 'string':
        if (schema.format === 'date-time') return dateTime();
        if (schema.pattern) return pattern(schema);
        if (schema.maxLength === undefined) {
          // No limit in the schema: the server's own limits are all there is.
          return fc.oneof(
            { arbitrary: text(schema.minLength ?? 0, 40), weight: 9 },
            longString(1000, 20_000),
          );
        }
        return text(schema.minLength ?? 0, schema.maxLength);
      case 'integer':
      case 'number': {
        const usual =
          type === 'integer'
            ? fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 })
            : fc.double({
                min: schema.minimum ?? -1e6,
                max: schema.maximum ?? 1e6,
                noNaN: true,
                noDefaultInfinity: true,
              });
        const edges = edgeNumbers(schema, type === 'integer');
        return edges.length ? fc.oneof({ arbitrary: usual, weight: 3 }, fc.constantFrom(...edges)) : usual;
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const min = schema.minItems ?? 0;
        const item = schema.items ? valid(schema.items, name) : fc.jsonValue({ maxDepth: 1 });
        return fc.array(item, {
          minLength: min,
          maxLength: Math.max(min, Math.min(schema.maxItems ?? 4, 4)),
        });
      }
      case 'object':
        return validObject(schema);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  function validObject(schema: JsonSchema): fc.Arbitrary<unknown> {
    const properties = schema.properties ?? {};
    const model = Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, valid(s, k)]));
    const record = fc.record(model, { requiredKeys: schema.required ?? [] });
    const extra = schema.additionalProperties;
    if (typeof extra !== 'object' && Object.keys(properties).length > 0) return record;
    const values = typeof extra === 'object' ? valid(extra) : fc.jsonValue({ maxDepth: 2 });
    const more = fc.dictionary(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }), values, {
      maxKeys: Math.min(schema.maxProperties ?? 3, 3),
    });
    return fc.tuple(record, more).map(([r, m]) => ({ ...m, ...r }));
  }

  function valid(schema: JsonSchema, name?: string): fc.Arbitrary<unknown> {
    if (schema.enum) return fc.constantFrom(...schema.enum);
    if (schema.const !== undefined) return fc.constant(schema.const);
    const branches = schema.anyOf ?? schema.oneOf;
    if (branches) return fc.oneof(...branches.map((b) => valid(b, name)));
    if (schema.allOf?.length) return valid(schema.allOf[0]!, name);
    const types = typesOf(schema);
    const generated =
      types.length === 0
        ? validOfType(schema.properties ? 'object' : 'any', schema, name)
        : fc.oneof(...types.map((t) => validOfType(t, schema, name)));
    const pool = fromPool(name);
    return pool ? fc.oneof({ arbitrary: pool, weight: 3 }, { arbitrary: generated, weight: 2 }) : generated;
  }

  function faultyString(schema: JsonSchema): fc.Arbitrary<unknown> {
    const max = schema.maxLength;
    const options: fc.Arbitrary<unknown>[] = [
      fc.constantFrom(...NASTY_STRINGS),
      fc.tuple(text(0, 20), fc.constantFrom(...NASTY_UNITS), text(0, 20)).map(([a, b, c]) => a + b + c),
      longString(1000, 100_000),
    ];
    if (max !== undefined) options.push(longString(max + 1, max + 50));
    if (schema.format === 'date-time') options.push(fc.constantFrom(...BAD_DATES));
    return fc.oneof(...options);
  }

  function faultyObject(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const base = validObject(schema) as fc.Arbitrary<Record<string, unknown>>;
    const properties = Object.entries(schema.properties ?? {});
    const required = schema.required ?? [];
    const options: fc.Arbitrary<unknown>[] = [
      // An extra key, or a key sent twice, kept in the order written.
      fc
        .tuple(base, fc.constantFrom(...NASTY_KEYS), fc.jsonValue({ maxDepth: 2 }))
        .map(([o, k, v]) => new JsonEntries([...Object.entries(o), [k, v]])),
      fc
        .tuple(base, fc.jsonValue({ maxDepth: 1 }))
        .map(
          ([o, v]) =>
            new JsonEntries([...Object.entries(o), ['constructor', { prototype: { polluted: v } }]]),
        ),
      // Many keys at once.
      fc
        .integer({ min: 200, max: 5000 })
        .map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
    ];
    if (required.length > 0) {
      options.push(
        fc.tuple(base, fc.constantFrom(...required)).map(([o, k]) => {
          const { [k]: _dropped, ...rest } = o;
          return rest;
        }),
      );
    }
    // Most often, one field goes wrong: that is what reaches past the parts of the schema that hold.
    const nested =
      properties.length > 0 && depth < 6
        ? fc
            .constantFrom(...properties)
            .chain(([k, s]) => fc.tuple(base, fc.constant(k), faultyAt(s, k, depth + 1)))
            .map(([o, k, v]) => new JsonEntries([...Object.entries(o).filter(([key]) => key !== k), [k, v]]))
        : undefined;
    const others = fc.oneof(...options);
    return nested ? fc.oneof({ arbitrary: nested, weight: 3 }, { arbitrary: others, weight: 1 }) : others;
  }

  function faultyArray(schema: JsonSchema, name: string | undefined, depth: number): fc.Arbitrary<unknown> {
    const item = schema.items ?? {};
    const max = schema.maxItems;
    const options: fc.Arbitrary<unknown>[] = [
      // Far too many items (one item repeated: cheap to make, shrinks by count), yet a body of
      // a few megabytes at most: the 1 MB limit is tested on its own, and memory is shared.
      fc
        .tuple(
          valid(item, name),
          fc.integer({ min: (max ?? 100) + 1, max: Math.max((max ?? 100) + 1, 3000) }),
        )
        .map(([v, n]) => {
          const least = (max ?? 0) + 1;
          // Where even maxItems + 1 copies of the item made would be a huge body (import lists
          // take 50,000), the smallest JSON value stands in for it.
          const item = least * (toJsonText(v, {}).length + 1) > 8_000_000 ? 0 : v;
          const fits = Math.floor(2_000_000 / (toJsonText(item, {}).length + 1));
          return Array.from({ length: Math.max(least, Math.min(n, fits)) }, () => item);
        }),
      fc.array(fc.constantFrom(...WRONG_TYPES), { minLength: 1, maxLength: 3 }),
    ];
    if (depth < 6) {
      options.push(
        fc
          .tuple(fc.array(valid(item, name), { maxLength: 3 }), faultyAt(item, name, depth + 1))
          .map(([items, bad]) => [...items, bad]),
      );
    }
    if ((schema.minItems ?? 0) > 0) options.push(fc.constant([]));
    return fc.oneof(...options);
  }

  function faultyAt(schema: JsonSchema, name: string | undefined, depth: number): fc.Arbitrary<unknown> {
    const wrongType = fc.constantFrom(...WRONG_TYPES);
    const options: fc.Arbitrary<unknown>[] = [];
    if (schema.enum) {
      options.push(
        fc.constantFrom(
          ...schema.enum.map((v) => (typeof v === 'string' ? v.toLowerCase() : v)),
          'NOT_ONE_OF',
        ),
      );
    }
    const branches = schema.anyOf ?? schema.oneOf;
    if (branches) options.push(fc.oneof(...branches.map((b) => faultyAt(b, name, depth))));
    for (const type of typesOf(schema)) {
      if (type === 'string') options.push(faultyString(schema));
      if (type === 'integer' || type === 'number') options.push(fc.constantFrom(...EXTREME_NUMBERS));
      if (type === 'object') options.push(faultyObject(schema, depth));
      if (type === 'array') options.push(faultyArray(schema, name, depth));
    }
    if (!schema.type && schema.properties) options.push(faultyObject(schema, depth));
    if (options.length === 0) return wrongType;
    return fc.oneof({ arbitrary: wrongType, weight: 1 }, { arbitrary: fc.oneof(...options), weight: 3 });
  }

  return { valid, faulty: (schema, name) => faultyAt(schema, name, 0) };
}
