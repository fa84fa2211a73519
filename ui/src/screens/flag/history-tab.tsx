import { EventList } from '../../events/event-list';
import type { FlagTabProps } from './flag-tab';

/** Every change made to the flag, newest first. */
export function HistoryTab({ feature }: FlagTabProps) {
  return <EventList filter={{ feature: feature.name }} />;
}
