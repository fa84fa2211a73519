import { ValidationError } from '../http/errors.js';

// Unleash's search parameters name an operator and its values in one string: `IS:default`,
// `IS_ANY_OF:a,b`, `INCLUDE:simple:blue`, `IS_ON_OR_AFTER:2024-01-31`. The schemas check the
// form; these turn a checked string into a test.

/** An operator and the values after it, split at commas and trimmed. */
export interface Filter {
  operator: string;
  values: string[];
}

export function parseFilter(text: string): Filter {
  const colon = text.indexOf(':');
  return {
    operator: text.slice(0, colon),
    values: text
      .slice(colon + 1)
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== ''),
  };
}

/** `IS` / `IS_NOT` / `IS_ANY_OF` / `IS_NONE_OF` on something with one value (or none). */
export function matchesOne(filter: Filter, value: string | null): boolean {
  const hit = value !== null && filter.values.includes(value);
  return filter.operator === 'IS' || filter.operator === 'IS_ANY_OF' ? hit : !hit;
}

/** The same operators on something with several values (a feature's states): any one counts. */
export function matchesSome(filter: Filter, values: readonly string[]): boolean {
  const hit = values.some((v) => filter.values.includes(v));
  return filter.operator === 'IS' || filter.operator === 'IS_ANY_OF' ? hit : !hit;
}

/**
 * `INCLUDE` / `DO_NOT_INCLUDE` / `INCLUDE_ALL_OF` / `INCLUDE_ANY_OF` / `EXCLUDE_IF_ANY_OF` /
 * `EXCLUDE_ALL` on a set a feature holds (its tags, its segments).
 */
export function matchesSet(filter: Filter, held: ReadonlySet<string>): boolean {
  const some = filter.values.some((v) => held.has(v));
  const all = filter.values.every((v) => held.has(v));
  switch (filter.operator) {
    case 'INCLUDE':
    case 'INCLUDE_ANY_OF':
      return some;
    case 'INCLUDE_ALL_OF':
      return all;
    case 'DO_NOT_INCLUDE':
    case 'EXCLUDE_IF_ANY_OF':
      return !some;
    default: // EXCLUDE_ALL: not every one of them
      return !all;
  }
}

/** The first moment of a `yyyy-mm-dd` day (UTC); a day that is not in the calendar is a 400. */
export function dayStart(day: string, parameter: string): Date {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    throw new ValidationError(`"${day}" is not a date: give one as yyyy-mm-dd.`, [
      { message: `"${day}" is not a date in the calendar`, path: `/query/${parameter}` },
    ]);
  }
  return date;
}

/** The values as integers (user ids, event ids); anything else is a 400. */
export function integers(filter: Filter, parameter: string): number[] {
  return filter.values.map((v) => {
    const n = Number(v);
    if (!/^-?\d{1,10}$/.test(v) || !Number.isSafeInteger(n) || Math.abs(n) > 2147483647) {
      throw new ValidationError(`The ${parameter} filter takes ids (whole numbers): "${v}" is not one.`, [
        { message: `"${v}" is not an id`, path: `/query/${parameter}` },
      ]);
    }
    return n;
  });
}
