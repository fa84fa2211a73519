import { useState } from 'preact/hooks';
import { TextField } from '../../components/fields';
import { type EventFilter, EventList } from '../../events/event-list';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';

/** The audit log of the whole instance, filtered by type, project and flag. */
export function EventsPage({ query }: RouteProps) {
  const [filter, setFilter] = useState<EventFilter>({
    type: query.get('type') ?? '',
    project: query.get('project') ?? '',
    feature: query.get('feature') ?? '',
  });
  const [applied, setApplied] = useState(filter);
  return (
    <>
      <PageHeader title="Event log" />
      <search aria-label="Filter the events">
        <form
          class="filters"
          onSubmit={(e) => {
            e.preventDefault();
            setApplied(filter);
          }}
        >
          <TextField
            label="Event type"
            placeholder="feature-created"
            value={filter.type ?? ''}
            onValue={(type) => setFilter({ ...filter, type })}
          />
          <TextField
            label="Project"
            value={filter.project ?? ''}
            onValue={(project) => setFilter({ ...filter, project })}
          />
          <TextField
            label="Flag"
            value={filter.feature ?? ''}
            onValue={(feature) => setFilter({ ...filter, feature })}
          />
          <button type="submit" class="button button-primary">
            Filter
          </button>
        </form>
      </search>
      <EventList key={JSON.stringify(applied)} filter={applied} />
    </>
  );
}
