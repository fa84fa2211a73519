import fc from 'fast-check';
import type { JsonSchema } from './openapi.js';
import { type Pools, RawJson, toJsonText } from './values.js';

/**
 * The largest values a JSON schema accepts, for the cost run (cost.fuzz.ts), in two kinds:
 * `many` fills every array to its `maxItems` and every open object with keys, with short distinct
 * strings, and gives a field named like one of the fixture's pools its values (so references hold
 * and the work behind them is done); `long` writes every string at its `maxLength`, with fresh
 * names, so creations go through. Where the schema sets no bound (no maxItems, no maxLength, a value
 * of any type) the byte budget is the bound: counts and lengths grow together, as `bound^t`, with
 * the largest `t` whose JSON text fits the budget — nested arrays then share it (their product is
 * what fits), rather than the outermost taking it all. A value of any type in `long` is nested as
 * deep as the budget lets it (up to MAX_DEPTH).
 */
export type Kind = 'many' | 'long';

const UNBOUNDED_ITEMS = 1_000_000;
const UNBOUNDED_KEYS = 100_000;
const MAX_DEPTH = 5_000;
/** Wide enough for distinct names: base 36 in eight characters. */
const NAME_WIDTH = 8;
const FAR_DATE = '2099-12-31T23:59:59.999Z';

interface Shape {
  /** The length of its JSON text (close: names of counters may be shorter). */
  size: number;
  make(): unknown;
}

/** Makes distinct strings of a given length that match the schema's pattern, or says it cannot. */
type StringMaker = (length: number, n: number) => string;

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ['object'];
  return [];
}

const plain: StringMaker = (length, n) => n.toString(36).padStart(length, 'a').slice(-length);
const digits: StringMaker = (length, n) => String(n).padStart(length, '1').slice(-length);

/** A string maker for a pattern: plain names where they match, else a sample of it made longer. */
function makerFor(schema: JsonSchema): { make: StringMaker; fixed?: number } {
  if (!schema.pattern) return { make: plain };
  const re = new RegExp(schema.pattern);
  const min = Math.max(schema.minLength ?? 1, 1);
  for (const make of [plain, digits]) {
    if (re.test(make(Math.max(min, NAME_WIDTH), 12345)) && re.test(make(min, 7))) return { make };
  }
  const samples = fc.sample(fc.stringMatching(re, { maxLength: 40 }), { seed: 42, numRuns: 60 });
  const units: ((k: number) => string)[] = [(k) => `,v${k.toString(36)}`, () => 'a', () => '0'];
  for (const base of samples.sort((a, b) => a.length - b.length)) {
    for (const unit of units) {
      const longer = base + unit(1) + unit(2);
      if (!re.test(longer)) continue;
      return {
        make(length, n) {
          let text = base;
          for (let k = n; text.length < length; k++) {
            const next = text + unit(k);
            if (next.length > length) break;
            text = next;
          }
          return text;
        },
      };
    }
  }
  const longest = samples.reduce((a, b) => (b.length > a.length ? b : a), samples[0] ?? '');
  return { make: () => longest, fixed: longest.length };
}

export function largestValues(pools: Pools) {
  let counter = 0;
  const poolCursor = new Map<string, number>();

  /** The pool's values that fit the schema (a pool of ids holds numbers and names). */
  function fromPool(schema: JsonSchema, name: string | undefined, kind: Kind): Shape | undefined {
    const types = typesOf(schema);
    const fits = (v: string | number) =>
      types.includes(typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : 'string') ||
      (typeof v === 'number' && types.includes('number')) ||
      (typeof v === 'string' && (!schema.pattern || new RegExp(schema.pattern).test(v)));
    const values =
      name && kind === 'many'
        ? pools[name]?.filter((v) => fits(v) && (typeof v !== 'string' || types.includes('string')))
        : undefined;
    if (!values?.length) return undefined;
    return {
      size: Math.max(...values.map((v) => JSON.stringify(v).length)),
      make() {
        const i = poolCursor.get(name!) ?? 0;
        poolCursor.set(name!, i + 1);
        return values[i % values.length];
      },
    };
  }

  /** `bound^t`, at least `min`. */
  const scaled = (bound: number, t: number, min: number) =>
    Math.max(min, Math.min(bound, Math.floor(bound ** t)));

  function stringShape(schema: JsonSchema, name: string | undefined, kind: Kind, t: number, budget: number) {
    if (schema.format === 'date-time') return { size: FAR_DATE.length + 2, make: () => FAR_DATE };
    const min = schema.minLength ?? 0;
    const { make, fixed } = makerFor(schema);
    let length: number;
    if (fixed !== undefined) length = fixed;
    else if (kind === 'many') length = Math.max(min, Math.min(schema.maxLength ?? NAME_WIDTH, NAME_WIDTH));
    else if (schema.maxLength !== undefined) length = schema.maxLength;
    else length = scaled(budget, t, Math.max(min, NAME_WIDTH));
    const email = /e-?mail/i.test(name ?? '') && length >= 16;
    return {
      size: length + 2,
      make: () => {
        const n = ++counter;
        return email ? `${plain(length - 12, n)}@example.com` : make(length, n);
      },
    };
  }

  /**
   * Strings the server reads for what they say, by the field's name: a password strong enough, an
   * address, a URL that goes nowhere, an origin. Each at the longest its schema allows.
   */
  function hint(schema: JsonSchema, name: string | undefined): Shape | undefined {
    const max = schema.maxLength ?? 1000;
    const fixed = (text: string) => ({ size: text.length + 2, make: () => text });
    if (/password/i.test(name ?? '')) return fixed(`Aa1!${'x'.repeat(Math.min(max, 128) - 4)}`);
    if (/^(url|discoverUrl|unleashUrl|link|documentationUrl)$/.test(name ?? '')) {
      return fixed(`http://127.0.0.1:9/${'u'.repeat(Math.min(max, 2000) - 19)}`);
    }
    if (name === 'frontendApiOrigins') {
      return { size: 32, make: () => `https://o${plain(NAME_WIDTH, ++counter)}.example.com` };
    }
    return undefined;
  }

  function deep(depth: number): Shape {
    return { size: depth * 6 + 1, make: () => new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) };
  }

  function shape(schema: JsonSchema, name: string | undefined, kind: Kind, t: number, budget: number): Shape {
    if (schema.enum?.length) {
      const longest = schema.enum.reduce((a, b) =>
        JSON.stringify(b).length > JSON.stringify(a).length ? b : a,
      );
      return { size: JSON.stringify(longest).length, make: () => longest };
    }
    if (schema.const !== undefined)
      return { size: JSON.stringify(schema.const).length, make: () => schema.const };
    const branches = schema.anyOf ?? schema.oneOf;
    if (branches?.length) {
      // An object or a list where one is allowed (a state's environment may be a name or a whole
      // environment): the larger form, whichever is shorter at this size.
      const compound = branches.filter((b) => typesOf(b).some((x) => x === 'object' || x === 'array'));
      const shapes = (compound.length ? compound : branches).map((b) => shape(b, name, kind, t, budget));
      return shapes.reduce((a, b) => (b.size > a.size ? b : a));
    }
    if (schema.allOf?.length) return shape(schema.allOf[0]!, name, kind, t, budget);
    const pooled = fromPool(schema, name, kind);
    if (pooled && typesOf(schema).some((type) => type !== 'array' && type !== 'object')) return pooled;
    const types = typesOf(schema);
    const hinted = types.includes('string') ? hint(schema, name) : undefined;
    if (hinted) return hinted;
    const type = ['object', 'array', 'string', 'integer', 'number', 'boolean'].find((x) => types.includes(x));
    switch (type) {
      case 'string':
        return stringShape(schema, name, kind, t, budget);
      case 'integer':
      case 'number': {
        const value = schema.maximum ?? 1_000_000;
        return { size: String(value).length, make: () => value };
      }
      case 'boolean':
        return { size: 4, make: () => true };
      case 'array': {
        const item = shape(schema.items ?? {}, name, kind, t, budget);
        const count = scaled(schema.maxItems ?? UNBOUNDED_ITEMS, t, schema.minItems ?? 0);
        return {
          size: 2 + count * (item.size + 1),
          make: () => Array.from({ length: count }, () => item.make()),
        };
      }
      case 'object':
        return objectShape(schema, kind, t, budget);
      default:
        if (types.includes('null')) return { size: 4, make: () => null };
        if (kind === 'long') return deep(scaled(MAX_DEPTH, t, 1));
        return shape({ type: 'array', items: { type: 'integer' } }, name, kind, t, budget);
    }
  }

  function objectShape(schema: JsonSchema, kind: Kind, t: number, budget: number): Shape {
    const fields = Object.entries(schema.properties ?? {}).map(
      ([key, s]) => [key, shape(s, key, kind, t, budget)] as const,
    );
    const extra = schema.additionalProperties;
    const open = typeof extra === 'object' || (extra !== false && fields.length === 0);
    const extraValue = open
      ? shape(typeof extra === 'object' ? extra : {}, undefined, kind, t, budget)
      : undefined;
    const extraKeys = extraValue ? scaled(schema.maxProperties ?? UNBOUNDED_KEYS, t, 0) - fields.length : 0;
    const keySize = NAME_WIDTH + 3;
    return {
      size:
        2 +
        fields.reduce((sum, [key, s]) => sum + key.length + 4 + s.size, 0) +
        Math.max(extraKeys, 0) * (keySize + 1 + (extraValue?.size ?? 0)),
      make() {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < extraKeys; i++) out[`k${plain(NAME_WIDTH, ++counter)}`] = extraValue!.make();
        for (const [key, s] of fields) out[key] = s.make();
        return out;
      },
    };
  }

  /**
   * The largest value of `kind` whose JSON text fits `budget` bytes: the largest `t` by bisection
   * on the estimated size, then checked on the text itself (and made smaller while it does not fit).
   */
  function largest(
    schema: JsonSchema,
    kind: Kind,
    budget: number,
    name?: string,
  ): { value: unknown; text: string } {
    let low = 0;
    let high = 1;
    if (shape(schema, name, kind, 1, budget).size <= budget) low = 1;
    else {
      for (let i = 0; i < 30; i++) {
        const mid = (low + high) / 2;
        if (shape(schema, name, kind, mid, budget).size <= budget) low = mid;
        else high = mid;
      }
    }
    for (let t = low; ; t *= 0.97) {
      poolCursor.clear();
      const value = shape(schema, name, kind, t, budget).make();
      const text = toJsonText(value, pools);
      if (Buffer.byteLength(text) <= budget || t < 1e-3) return { value, text };
    }
  }

  return { largest };
}
