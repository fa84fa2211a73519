/** One field that differs between an event's data before and after: its path, e.g. `parameters.rollout`. */
export interface FieldChange {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const isContainer = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function walk(before: unknown, after: unknown, path: string, out: FieldChange[]): void {
  // Objects and arrays are compared field by field (arrays by position); anything else as a whole.
  if (isContainer(before) && isContainer(after) && Array.isArray(before) === Array.isArray(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) {
      const at = path ? `${path}.${key}` : key;
      if (!(key in after)) out.push({ path: at, kind: 'removed', before: before[key] });
      else if (!(key in before)) out.push({ path: at, kind: 'added', after: after[key] });
      else walk(before[key], after[key], at, out);
    }
    return;
  }
  if (!Object.is(before, after)) out.push({ path: path || '(value)', kind: 'changed', before, after });
}

/** The fields that differ between two JSON values, in the order they first appear. */
export function diff(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  walk(before, after, '', out);
  return out;
}

/** A value as one line of text: strings as they are (an empty one as ""), the rest as JSON. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value) ?? String(value);
}
