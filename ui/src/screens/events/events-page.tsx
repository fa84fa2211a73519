import { useMemo } from 'preact/hooks';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { EventList } from '../../events/event-list';
import { type EventQuery, isFiltered, NO_FILTER, queryFromUrl, queryToUrl } from '../../events/event-query';
import { PageHeader } from '../../layout/page-header';
import { navigate, type RouteProps } from '../../router';
import { EventFilters } from './event-filters';

/** The audit log of the whole instance, filtered by type, project, user, flag and days; the URL keeps it. */
export function EventsPage({ query }: RouteProps) {
  const queryText = query.toString();
  const eventQuery = useMemo(() => queryFromUrl(new URLSearchParams(queryText)), [queryText]);
  const projects = useResource<{ projects: { id: string; name: string }[] }>('/api/admin/projects');
  const creators = useResource<{ id: number; name: string }[]>('/api/admin/event-creators');
  const show = (next: EventQuery) => navigate(`/events${queryToUrl(next)}`, { replace: true });
  return (
    <>
      <PageHeader title="Event log" />
      <EventFilters
        query={eventQuery}
        onQuery={show}
        projects={projects.data?.projects ?? []}
        creators={creators.data ?? []}
      />
      <EventList
        query={eventQuery}
        onPage={(page) => show({ ...eventQuery, page })}
        empty={
          isFiltered(eventQuery) ? (
            <>
              No events match these filters.{' '}
              <Button onClick={() => show(NO_FILTER)}>Clear the filters</Button>
            </>
          ) : (
            'No events yet.'
          )
        }
      />
    </>
  );
}
