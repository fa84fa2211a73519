import { useState } from 'preact/hooks';
import { EventList } from '../../events/event-list';
import { NO_FILTER } from '../../events/event-query';
import type { FlagTabProps } from './flag-tab';

/** Every change made to the flag, newest first. */
export function HistoryTab({ feature }: FlagTabProps) {
  const [page, setPage] = useState(0);
  return (
    <EventList
      query={{ ...NO_FILTER, feature: feature.name, page }}
      onPage={setPage}
      empty="No changes to this flag recorded."
    />
  );
}
