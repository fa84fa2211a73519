import type { ErrorDetail } from '../errors.js';

/**
 * What a request may not hold beyond what its schema says: text PostgreSQL cannot store, and keys
 * that reach JavaScript prototypes. Both are answered 400 naming the field, before any route runs.
 */

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why PostgreSQL cannot store `text` as it is, or null when it can: text columns refuse NUL, and
 * JSON columns refuse a `\uD800` that is not half of a pair (text columns would quietly turn it
 * into U+FFFD instead, which is no better).
 */
export function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'holds a NUL character (\\u0000), which cannot be stored';
  if (LONE_SURROGATE.test(text)) return 'holds half of a UTF-16 surrogate pair, which is not Unicode text';
  return null;
}

interface Node {
  value: unknown;
  segment?: string;
  parent?: Node;
}

/** The dotted path of a node, like the schema's (`constraints.0.values.1`); keys shown escaped. */
function pathOf(node: Node, prefix: string | undefined, key?: string): string {
  const segments = key === undefined ? [] : [key];
  for (let n: Node | undefined = node; n; n = n.parent)
    if (n.segment !== undefined) segments.unshift(n.segment);
  const printable = segments.map((s) => JSON.stringify(s).slice(1, -1));
  return [prefix, ...printable].filter(Boolean).join('.') || 'body';
}

type Visit = (node: Node, path: (key?: string) => string) => ErrorDetail | null;

/** Calls `visit` on every value, depth first, until it finds something. Iterative: bodies may nest deep. */
function walk(value: unknown, prefix: string | undefined, visit: Visit): ErrorDetail | null {
  const stack: Node[] = [{ value }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const found = visit(node, (key) => pathOf(node, prefix, key));
    if (found) return found;
    const current = node.value;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], segment: String(i), parent: node });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push({ value: entries[i]![1], segment: entries[i]![0], parent: node });
      }
    }
  }
  return null;
}

/** The first string in a parsed JSON value, key or value, that cannot be stored. */
export function findUnstorableText(value: unknown, prefix?: string): ErrorDetail | null {
  return walk(value, prefix, ({ value: current }, path) => {
    if (typeof current === 'string') {
      const reason = unstorable(current);
      return reason ? { path: path(), message: `The \`${path()}\` property ${reason}: remove it.` } : null;
    }
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return null;
    for (const key of Object.keys(current)) {
      const reason = unstorable(key);
      if (reason) return { path: path(key), message: `The key of \`${path(key)}\` ${reason}: rename it.` };
    }
    return null;
  });
}

/**
 * Whether JSON text may hold what findUnstorableText looks for: both can only be written as the
 * escapes `\u0000` and `\uD8xx`–`\uDFxx` (JSON forbids a raw NUL in a string, and bytes that are
 * not UTF-8 are decoded to U+FFFD). Most bodies have neither, and are not walked.
 */
export function mayHoldUnstorableText(json: string): boolean {
  return /\\u(?:0000|[dD][89a-fA-F])/.test(json);
}

/**
 * The first key that would reach a prototype if the value were merged into an object: `__proto__`,
 * or `constructor` holding a `prototype`. Fastify's parser refuses these bodies; this names why.
 */
export function findPrototypeKey(value: unknown): ErrorDetail | null {
  return walk(value, undefined, ({ value: current }, path) => {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return null;
    const record = current as Record<string, unknown>;
    const ctor = Object.hasOwn(record, 'constructor') ? record.constructor : undefined;
    const key = Object.hasOwn(record, '__proto__')
      ? '__proto__'
      : typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype')
        ? 'constructor'
        : undefined;
    if (key === undefined) return null;
    const where = path(key);
    return {
      path: where,
      message: `The key \`${key}\` (at \`${where}\`) is not accepted, as it could change how the server's objects behave: rename or remove it.`,
    };
  });
}
