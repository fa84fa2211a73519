import { api } from '../../api/client';
import { requestsPath } from '../../change-requests/drafts';
import type { ChangeRequest } from '../../change-requests/types';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { isoFromLocalInput, localInputOf } from '../../forms/dates';
import { useForm } from '../../forms/use-form';

interface Props {
  request: ChangeRequest;
  /** After the server took the time: the page reads the request again. */
  onSaved(): Promise<void>;
  onClose(): void;
}

const HOUR_MS = 3_600_000;

/** The time the field offers first: the request's own while still to come, else an hour from now. */
function firstChoice(request: ChangeRequest): string {
  const at = request.schedule && new Date(request.schedule.scheduledAt);
  return localInputOf(at && at.getTime() > Date.now() ? at : new Date(Date.now() + HOUR_MS));
}

// The server refuses a time that has passed too; said here, the user need not wait for it.
function checkToCome(value: string): string | undefined {
  const at = new Date(value);
  if (!value || Number.isNaN(at.getTime())) return 'Pick a date and time.';
  return at.getTime() <= Date.now() ? 'Pick a time to come: this one has passed.' : undefined;
}

/**
 * When to apply an approved request, or a scheduled one instead of its time. The field is in the
 * user's time zone, named in its label: the server takes the moment, not the clock reading.
 */
export function ScheduleForm({ request, onSaved, onClose }: Props) {
  const form = useForm({ scheduledAt: firstChoice(request) }, { checks: { scheduledAt: checkToCome } });
  const rescheduling = request.state === 'Scheduled';
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <Form
      label={rescheduling ? 'Reschedule the change request' : 'Schedule the change request'}
      class="inline-form schedule-form"
      error={form.error}
      onSubmit={form.onSubmit(async ({ scheduledAt }) => {
        await api.put(`${requestsPath(request.project)}/${request.id}/state`, {
          state: 'Scheduled',
          scheduledAt: isoFromLocalInput(scheduledAt),
        });
        await onSaved();
        onClose();
      })}
    >
      <TextField
        label={`Apply on (${zone})`}
        type="datetime-local"
        required
        autoFocus
        {...form.field('scheduledAt')}
      />
      <Button type="submit" variant="primary" busy={form.submitting}>
        {rescheduling ? 'Reschedule' : 'Schedule'}
      </Button>
      <Button variant="quiet" onClick={onClose}>
        Cancel
      </Button>
    </Form>
  );
}
