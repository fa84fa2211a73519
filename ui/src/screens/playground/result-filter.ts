import type { ResultRow } from './answers';
import { type Outcome, outcomeOf } from './reasons';

export interface ResultFilter {
  /** Part of a flag's name. */
  search: string;
  outcome: '' | Outcome;
  /** Only flags whose result for a context differs between the environments tried. */
  differing: boolean;
}

export const NO_FILTER: ResultFilter = { search: '', outcome: '', differing: false };

const contextKey = (row: ResultRow) => `${row.name}\n${JSON.stringify(row.varying)}`;

/**
 * The flags (with a context) that are on in one environment and not in another: one pass over the
 * rows, done once per answer, so that filtering by it costs no more than by name.
 */
export function differingKeys(rows: readonly ResultRow[]): Set<string> {
  const outcomes = new Map<string, Set<Outcome>>();
  for (const row of rows) {
    const key = contextKey(row);
    const seen = outcomes.get(key) ?? new Set<Outcome>();
    seen.add(outcomeOf(row));
    outcomes.set(key, seen);
  }
  return new Set([...outcomes].filter(([, seen]) => seen.size > 1).map(([key]) => key));
}

/** The indexes of the rows that pass the filter, in the answer's order. */
export function filterRows(
  rows: readonly ResultRow[],
  filter: ResultFilter,
  differing: Set<string>,
): number[] {
  const needle = filter.search.trim().toLowerCase();
  const shown: number[] = [];
  rows.forEach((row, index) => {
    if (needle && !row.name.toLowerCase().includes(needle)) return;
    if (filter.outcome && outcomeOf(row) !== filter.outcome) return;
    if (filter.differing && !differing.has(contextKey(row))) return;
    shown.push(index);
  });
  return shown;
}
