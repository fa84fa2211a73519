import type { Context } from '../client/evaluation/types.js';

const STANDARD_FIELDS = new Set([
  'appName',
  'currentTime',
  'environment',
  'remoteAddress',
  'sessionId',
  'userId',
]);

/** A context as sent: the standard fields, custom fields at the top and in `properties`. */
export type SentContext = Record<string, unknown> & { properties?: Record<string, string> };

/** One context to evaluate, flat: every field (standard or custom) by name, as text. */
export type FlatContext = Record<string, string>;

/**
 * The fields of a sent context as text: custom top-level fields that are not text are left out
 * (and named in `invalid`), those in `properties` join them.
 */
export function flatten(sent: SentContext): { flat: FlatContext; invalid: string[] } {
  const flat: FlatContext = {};
  const invalid: string[] = [];
  for (const [name, value] of Object.entries(sent)) {
    if (name === 'properties') continue;
    if (typeof value === 'string') flat[name] = value;
    else invalid.push(name);
  }
  for (const [name, value] of Object.entries(sent.properties ?? {})) flat[name] ??= value;
  return { flat, invalid };
}

/** The values a field stands for: comma-separated, each trimmed, empty ones and repeats left out. */
function valuesOf(text: string): string[] {
  const values = [...new Set(text.split(',').map((v) => v.trim()))].filter((v) => v !== '');
  return values.length > 0 ? values : [text];
}

/** How many contexts `combinations` makes, without making them. */
export function countCombinations(flat: FlatContext): number {
  return Object.values(flat).reduce((n, text) => n * valuesOf(text).length, 1);
}

/** Every combination of the fields' comma-separated values. */
export function combinations(flat: FlatContext): FlatContext[] {
  let result: FlatContext[] = [{}];
  for (const [name, text] of Object.entries(flat)) {
    result = result.flatMap((c) => valuesOf(text).map((v) => ({ ...c, [name]: v })));
  }
  return result;
}

/** The evaluation context of a flat one: standard fields at the top, the others as properties. */
export function evaluationContext(flat: FlatContext): Context {
  const properties: Record<string, string> = {};
  const context: Context = { properties };
  for (const [name, value] of Object.entries(flat)) {
    if (STANDARD_FIELDS.has(name)) context[name] = value;
    else properties[name] = value;
  }
  return context;
}
