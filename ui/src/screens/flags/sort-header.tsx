import type { FlagQuery, SortKey } from './flag-query';

interface Props {
  label: string;
  sortKey: SortKey;
  query: FlagQuery;
  onQuery(query: FlagQuery): void;
  class?: string;
}

/** A column heading that sorts the list by it; pressed again, the other way. */
export function SortHeader({ label, sortKey, query, onQuery, class: className }: Props) {
  const active = query.sort === sortKey;
  const next = active && query.order === 'asc' ? 'desc' : 'asc';
  return (
    <th
      scope="col"
      class={className}
      aria-sort={active ? (query.order === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <button
        type="button"
        class="sort-button"
        onClick={() => onQuery({ ...query, sort: sortKey, order: next, page: 0 })}
      >
        {label}
        <span aria-hidden="true" class="sort-mark">
          {active ? (query.order === 'asc' ? ' ▲' : ' ▼') : ''}
        </span>
        <span class="visually-hidden">, sort {next === 'asc' ? 'ascending' : 'descending'}</span>
      </button>
    </th>
  );
}
