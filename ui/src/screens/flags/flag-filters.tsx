import type { FeatureType, Tag } from '../../api/types';
import { CheckboxField, SelectField } from '../../components/fields';
import { SearchBox } from '../../components/search-box';
import { type FlagQuery, SORT_KEYS, type SortKey } from './flag-query';

const STAGES = [
  { value: '', label: 'Any stage' },
  { value: 'initial', label: 'Initial' },
  { value: 'pre-live', label: 'Pre-live' },
  { value: 'live', label: 'Live' },
  { value: 'completed', label: 'Completed' },
];

const SORT_NAMES: Record<SortKey, string> = {
  name: 'Name',
  project: 'Project',
  type: 'Type',
  lifecycle: 'Lifecycle',
  createdAt: 'Created',
  lastSeenAt: 'Last seen',
};
const SORT_CHOICES = SORT_KEYS.flatMap((key) => [
  { value: `${key}:asc`, label: `${SORT_NAMES[key]}, ascending` },
  { value: `${key}:desc`, label: `${SORT_NAMES[key]}, descending` },
]);

interface Props {
  query: FlagQuery;
  onQuery(query: FlagQuery): void;
  types: FeatureType[];
  tags: Tag[];
  /** The projects to choose from; none on a project's own page. */
  projects?: { id: string; name: string }[];
}

export function FlagFilters({ query, onQuery, types, tags, projects }: Props) {
  // Any change of filter starts again at the first page.
  const set = <K extends keyof FlagQuery>(key: K, value: FlagQuery[K]) =>
    onQuery({ ...query, [key]: value, page: 0 });
  const tagChoices = tags.map((t) => `${t.type}:${t.value}`).sort();
  return (
    <search class="filters" aria-label="Filter the flags">
      <SearchBox
        label="Search"
        placeholder="Name, description or tag"
        value={query.search}
        onSearch={(text) => set('search', text)}
      />
      {projects && (
        <SelectField
          label="Project"
          value={query.project}
          choices={[
            { value: '', label: 'Any project' },
            ...projects.map((p) => ({ value: p.id, label: p.name })),
          ]}
          onValue={(v) => set('project', v)}
        />
      )}
      <SelectField
        label="Type"
        value={query.type}
        choices={[{ value: '', label: 'Any type' }, ...types.map((t) => ({ value: t.id, label: t.name }))]}
        onValue={(v) => set('type', v)}
      />
      <SelectField
        label="Tag"
        value={query.tag}
        choices={[{ value: '', label: 'Any tag' }, ...tagChoices.map((t) => ({ value: t, label: t }))]}
        onValue={(v) => set('tag', v)}
      />
      <SelectField
        label="Stale"
        value={query.state}
        choices={[
          { value: '', label: 'Stale or not' },
          { value: 'stale', label: 'Stale only' },
          { value: 'potentially-stale', label: 'Past its expected lifetime' },
          { value: 'fresh', label: 'Not stale' },
        ]}
        onValue={(v) => set('state', v as FlagQuery['state'])}
      />
      <SelectField
        label="Lifecycle"
        value={query.lifecycle}
        choices={STAGES}
        onValue={(v) => set('lifecycle', v)}
      />
      {/* The column headings sort on a wide screen; a phone shows no headings. */}
      <div class="phone-only">
        <SelectField
          label="Sort by"
          value={`${query.sort}:${query.order}`}
          choices={SORT_CHOICES}
          onValue={(v) => {
            const [sort, order] = v.split(':') as [SortKey, FlagQuery['order']];
            onQuery({ ...query, sort, order, page: 0 });
          }}
        />
      </div>
      <CheckboxField label="Archived flags" checked={query.archived} onValue={(v) => set('archived', v)} />
    </search>
  );
}
