import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { AuditEvent, EventSearchAnswer } from '../api/types';
import { useResource } from '../api/use-resource';
import { Pager } from '../components/pager';
import { Empty, Loaded } from '../components/status';
import { formatDateTime } from '../format';
import { EventChanges } from './event-changes';
import { type EventQuery, PAGE_SIZE, searchPath } from './event-query';

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

interface Props {
  query: EventQuery;
  onPage(page: number): void;
  /** What is said when no event is found. */
  empty: ComponentChildren;
}

/**
 * The events the search API finds, newest first, a page at a time: the server filters and pages,
 * so a log of a million events costs the browser what one of 50 does.
 */
export function EventList({ query, onPage, empty }: Props) {
  const found = useResource<EventSearchAnswer>(searchPath(query), { keep: true });
  const total = found.data?.total ?? 0;
  const lastPage = Math.max(0, Math.ceil(total / PAGE_SIZE) - 1);

  // A page past the end (an old link, a log cleaned up since) shows the last one.
  useEffect(() => {
    if (found.data && !found.loading && query.page > lastPage) onPage(lastPage);
  });

  return (
    <Loaded resources={[found]} label="Loading events…">
      {(answer) =>
        answer.total === 0 ? (
          <Empty>{empty}</Empty>
        ) : (
          <>
            <ol class="event-list" aria-label="Events, newest first">
              {answer.events.map((event) => (
                <EventRow key={event.id} event={event} />
              ))}
            </ol>
            <Pager
              page={Math.min(query.page, lastPage)}
              pageSize={PAGE_SIZE}
              total={answer.total}
              onPage={onPage}
              noun="events"
            />
          </>
        )
      }
    </Loaded>
  );
}
