import { type Choice, SelectField, TextField } from '../../components/fields';
import { SearchBox } from '../../components/search-box';
import type { EventQuery } from '../../events/event-query';
import { EVENT_TYPES } from '../../events/event-types';

interface Props {
  query: EventQuery;
  onQuery(query: EventQuery): void;
  projects: { id: string; name: string }[];
  /** The users who made changes. */
  creators: { id: number; name: string }[];
}

/** The choices, with the value the URL names kept even when the list does not hold it (yet). */
function withCurrent(any: string, choices: Choice[], value: string): Choice[] {
  const known = value === '' || choices.some((c) => c.value === value);
  return [{ value: '', label: any }, ...choices, ...(known ? [] : [{ value, label: value }])];
}

export function EventFilters({ query, onQuery, projects, creators }: Props) {
  // Any change of filter starts again at the first page.
  const set = (key: keyof EventQuery, value: string) => onQuery({ ...query, [key]: value, page: 0 });
  return (
    <search class="filters" aria-label="Filter the events">
      <SelectField
        label="Event type"
        value={query.type}
        choices={withCurrent(
          'Any type',
          EVENT_TYPES.map((t) => ({ value: t, label: t })),
          query.type,
        )}
        onValue={(v) => set('type', v)}
      />
      <SelectField
        label="Project"
        value={query.project}
        choices={withCurrent(
          'Any project',
          projects.map((p) => ({ value: p.id, label: p.name })),
          query.project,
        )}
        onValue={(v) => set('project', v)}
      />
      <SelectField
        label="Changed by"
        value={query.user}
        choices={withCurrent(
          'Anyone',
          creators.map((c) => ({ value: String(c.id), label: c.name })),
          query.user,
        )}
        onValue={(v) => set('user', v)}
      />
      <SearchBox
        label="Flag"
        placeholder="Exact name"
        value={query.feature}
        onSearch={(text) => set('feature', text)}
      />
      <TextField label="From" type="date" value={query.from} onValue={(v) => set('from', v)} />
      <TextField label="To" type="date" value={query.to} onValue={(v) => set('to', v)} />
    </search>
  );
}
