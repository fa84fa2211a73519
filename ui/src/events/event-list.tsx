import { useState } from 'preact/hooks';
import type { AuditEvent, EventPage } from '../api/types';
import { useResource } from '../api/use-resource';
import { Pager } from '../components/pager';
import { Empty, Loaded } from '../components/status';
import { formatDateTime } from '../format';

export interface EventFilter {
  type?: string;
  project?: string;
  feature?: string;
}

const PAGE_SIZE = 25;

function eventsPath(filter: EventFilter, page: number): string {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(page * PAGE_SIZE) });
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, value);
  return `/api/admin/events?${params}`;
}

function EventChanges({ event }: { event: AuditEvent }) {
  if (event.data == null && event.preData == null) return null;
  return (
    <details class="event-changes">
      <summary>Details</summary>
      {event.preData != null && (
        <>
          <p class="label">Before</p>
          <pre>{JSON.stringify(event.preData, null, 2)}</pre>
        </>
      )}
      {event.data != null && (
        <>
          <p class="label">{event.preData != null ? 'After' : 'Data'}</p>
          <pre>{JSON.stringify(event.data, null, 2)}</pre>
        </>
      )}
    </details>
  );
}

function EventRow({ event }: { event: AuditEvent }) {
  return (
    <li class="event">
      <div class="event-head">
        <strong class="event-type">{event.type}</strong>
        <span class="muted">
          {formatDateTime(event.createdAt)} by {event.createdBy}
        </span>
      </div>
      <p class="event-where">
        {event.project && <span>project {event.project}</span>}
        {event.featureName && <span>flag {event.featureName}</span>}
        {event.environment && <span>environment {event.environment}</span>}
      </p>
      <EventChanges event={event} />
    </li>
  );
}

/** The audit log, newest first, filtered and a page at a time. */
export function EventList({ filter }: { filter: EventFilter }) {
  const [page, setPage] = useState(0);
  const events = useResource<EventPage>(eventsPath(filter, page));
  return (
    <Loaded resources={[events]}>
      {({ events: list, totalEvents }) =>
        totalEvents === 0 ? (
          <Empty>No events.</Empty>
        ) : (
          <>
            <ol class="event-list" aria-label="Events, newest first">
              {list.map((event) => (
                <EventRow key={event.id} event={event} />
              ))}
            </ol>
            <Pager page={page} pageSize={PAGE_SIZE} total={totalEvents} onPage={setPage} noun="events" />
          </>
        )
      }
    </Loaded>
  );
}
