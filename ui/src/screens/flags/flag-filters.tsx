import type { FeatureSummary, FeatureType } from '../../api/types';
import { CheckboxField, SelectField, TextField } from '../../components/fields';

export interface FlagFilter {
  search: string;
  type: string;
  /** `type:value`, or empty for any tag. */
  tag: string;
  stale: '' | 'stale' | 'fresh';
  archived: boolean;
}

/** The filter as query parameters (only those that filter), so that a filtered list can be linked to. */
export function filterToQuery(filter: FlagFilter, page: number): string {
  const params = new URLSearchParams();
  if (filter.search) params.set('search', filter.search);
  if (filter.type) params.set('type', filter.type);
  if (filter.tag) params.set('tag', filter.tag);
  if (filter.stale) params.set('stale', filter.stale);
  if (filter.archived) params.set('archived', '1');
  if (page > 0) params.set('page', String(page + 1));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function filterFromQuery(query: URLSearchParams): { filter: FlagFilter; page: number } {
  const stale = query.get('stale');
  return {
    filter: {
      search: query.get('search') ?? '',
      type: query.get('type') ?? '',
      tag: query.get('tag') ?? '',
      stale: stale === 'stale' || stale === 'fresh' ? stale : '',
      archived: query.get('archived') === '1',
    },
    page: Math.max(0, (Number.parseInt(query.get('page') ?? '1', 10) || 1) - 1),
  };
}

/** The flags that pass the filter (search in names and descriptions, case-insensitive). */
export function applyFilter(flags: FeatureSummary[], filter: FlagFilter): FeatureSummary[] {
  const words = filter.search.trim().toLowerCase();
  return flags.filter(
    (f) =>
      (!words ||
        f.name.toLowerCase().includes(words) ||
        (f.description ?? '').toLowerCase().includes(words)) &&
      (!filter.type || f.type === filter.type) &&
      (!filter.stale || f.stale === (filter.stale === 'stale')) &&
      (!filter.tag || (f.tags ?? []).some((t) => `${t.type}:${t.value}` === filter.tag)),
  );
}

function tagChoices(flags: FeatureSummary[]) {
  const tags = new Set<string>();
  for (const f of flags) for (const t of f.tags ?? []) tags.add(`${t.type}:${t.value}`);
  return [{ value: '', label: 'Any tag' }, ...[...tags].sort().map((t) => ({ value: t, label: t }))];
}

interface Props {
  filter: FlagFilter;
  onFilter(filter: FlagFilter): void;
  flags: FeatureSummary[];
  types: FeatureType[];
}

export function FlagFilters({ filter, onFilter, flags, types }: Props) {
  const set = <K extends keyof FlagFilter>(key: K, value: FlagFilter[K]) =>
    onFilter({ ...filter, [key]: value });
  return (
    <search class="filters" aria-label="Filter the flags">
      <TextField
        label="Search"
        type="search"
        placeholder="Name or description"
        value={filter.search}
        onValue={(v) => set('search', v)}
      />
      <SelectField
        label="Type"
        value={filter.type}
        choices={[{ value: '', label: 'Any type' }, ...types.map((t) => ({ value: t.id, label: t.name }))]}
        onValue={(v) => set('type', v)}
      />
      <SelectField
        label="Tag"
        value={filter.tag}
        choices={tagChoices(flags)}
        onValue={(v) => set('tag', v)}
      />
      <SelectField
        label="Stale"
        value={filter.stale}
        choices={[
          { value: '', label: 'Stale or not' },
          { value: 'stale', label: 'Stale only' },
          { value: 'fresh', label: 'Not stale' },
        ]}
        onValue={(v) => set('stale', v as FlagFilter['stale'])}
      />
      <CheckboxField label="Archived flags" checked={filter.archived} onValue={(v) => set('archived', v)} />
    </search>
  );
}
