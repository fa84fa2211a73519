import { timeUntil, useNow, useReloadWhenDue } from '../../change-requests/schedule';
import type { Schedule } from '../../change-requests/types';
import { formatDateTime } from '../../format';

interface Props {
  schedule: Schedule;
  /** Reads the request again: the server applies it at its time, not this page. */
  reload(): Promise<void>;
}

const At = ({ iso }: { iso: string }) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

/**
 * When a scheduled request is applied, counting down; or, stopped, why: a suspended or failed
 * schedule waits for someone to reschedule, apply or reject the request, who must first know.
 */
export function RequestSchedule({ schedule, reload }: Props) {
  const now = useNow(30_000);
  useReloadWhenDue(schedule, reload);
  const { status, scheduledAt, reason } = schedule;
  if (status === 'pending') {
    const due = new Date(scheduledAt).getTime() <= now;
    return (
      <section class="request-schedule" aria-label="Schedule">
        <p>
          {due ? 'Due on ' : 'Applies on '}
          <strong>
            <At iso={scheduledAt} />
          </strong>
          {due ? ': being applied.' : ` — ${timeUntil(scheduledAt, now)}`}
        </p>
      </section>
    );
  }
  return (
    <section class="conflict request-schedule-stopped" aria-label="Schedule">
      <p>
        <strong>{status === 'suspended' ? 'Suspended:' : 'Could not be applied:'}</strong>{' '}
        {reason ?? 'no reason was given.'}
      </p>
      <p>
        It was scheduled for <At iso={scheduledAt} />, and waits until it is rescheduled, applied now or
        rejected.
      </p>
    </section>
  );
}
