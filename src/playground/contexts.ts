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

/**
 * What the combinations of a context's comma-separated values amount to, measured without making
 * them: how many contexts, how many fields each, and the most characters one takes (names and
 * values), which every evaluation of it repeats in an answer.
 */
export function measureCombinations(flat: FlatContext): { contexts: number; fields: number; chars: number } {
  let contexts = 1;
  let chars = 0;
  for (const [name, text] of Object.entries(flat)) {
    const values = valuesOf(text);
    contexts *= values.length;
    chars += name.length + values.reduce((longest, v) => Math.max(longest, v.length), 0);
  }
  return { contexts, fields: Object.keys(flat).length, chars };
}

/**
 * Every combination of the fields' comma-separated values, the first field's values outermost,
 * each made only when it is asked for: the combinations can be far more than their fields.
 */
export function* eachCombination(flat: FlatContext): Generator<FlatContext> {
  const fields = Object.entries(flat).map(([name, text]) => ({ name, values: valuesOf(text) }));
  const at = fields.map(() => 0);
  for (;;) {
    const combination: FlatContext = {};
    for (const [i, f] of fields.entries()) combination[f.name] = f.values[at[i]!]!;
    yield combination;
    // The next combination: the last field's value moves on, carrying into the ones before it.
    let i = fields.length - 1;
    for (; i >= 0 && ++at[i]! === fields[i]!.values.length; i--) at[i] = 0;
    if (i < 0) return;
  }
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
