import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { announceDraftChange, requestsPath } from '../../change-requests/drafts';
import { type ChangeRequest, type ChangeRequestState, changeCount } from '../../change-requests/types';
import { Button } from '../../components/button';
import { useConfirm } from '../../components/confirm';
import { formatDateTime } from '../../format';
import type { Action } from '../../forms/use-action';
import { navigate } from '../../router';
import { useSession } from '../../session';
import { changeRequestHref } from '../../shared/links';
import { ScheduleForm } from './schedule-form';

interface Props {
  request: ChangeRequest;
  /** The page's runner: its error shows in the page's one place for them. */
  action: Action;
  /** Reads the request again after a step. */
  reload(): Promise<void>;
}

/**
 * Who may take which step, as the server decides it (review.ts): the author submits, cancels and
 * discards; others with APPROVE_CHANGE_REQUEST approve and reject (an Admin their own too), and
 * a scheduled request its author may withdraw too; APPLY_CHANGE_REQUEST applies, schedules and
 * reschedules. A button the server would refuse is not shown.
 */
function useSteps(request: ChangeRequest) {
  const session = useSession();
  const scope = { project: request.project, environment: request.environment };
  const isAuthor = request.createdBy.id === session.me.user.id;
  const owns = isAuthor || session.isAdmin;
  const reviews = session.can('APPROVE_CHANGE_REQUEST', scope) && (!isAuthor || session.isAdmin);
  const approvedByMe = request.approvals.some((a) => a.createdBy.id === session.me.user.id);
  const { state } = request;
  const among = (...states: ChangeRequestState[]) => states.includes(state);
  const applies = session.can('APPLY_CHANGE_REQUEST', scope);
  return {
    submit: owns && state === 'Draft' && changeCount(request) > 0,
    approve: reviews && state === 'In review' && !approvedByMe,
    reject: (reviews && among('In review', 'Approved', 'Scheduled')) || (owns && state === 'Scheduled'),
    apply: applies && among('Approved', 'Scheduled'),
    // Once scheduled, a new time replaces the old: the same step, named for what it does then.
    schedule: applies && among('Approved', 'Scheduled'),
    cancel: owns && among('In review', 'Approved'),
    discard: owns && state === 'Draft',
  };
}

/** The steps the request's state and the user's rights allow: submit, approve, reject, apply or schedule, cancel, discard. */
export function RequestActions({ request, action, reload }: Props) {
  const confirm = useConfirm();
  const steps = useSteps(request);
  const [scheduling, setScheduling] = useState(false);
  const scheduled = request.state === 'Scheduled';
  const base = `${requestsPath(request.project)}/${request.id}`;
  const moveTo = (state: ChangeRequestState) =>
    action.run(async () => {
      await api.put(`${base}/state`, { state });
      await reload();
      announceDraftChange();
    });
  const ask = async (title: string, body: string, confirmLabel: string, danger = false) =>
    confirm({ title, body: <p>{body}</p>, confirmLabel, danger });
  const env = request.environment;

  const apply = async () => {
    const agreed = scheduled
      ? await ask(
          'Apply the change request now?',
          `Its changes are made in ${env} now, not on ${formatDateTime(request.schedule?.scheduledAt)}.`,
          'Apply now',
        )
      : await ask('Apply the change request?', `Its changes are made in ${env} now.`, 'Apply changes');
    if (agreed) await moveTo('Applied');
  };
  const reject = async () => {
    const closed = scheduled ? 'It is closed, and not applied at its time' : 'It is closed';
    const body = `${closed}: its changes are not made. Its author can make a new one.`;
    if (await ask('Reject the change request?', body, 'Reject', true)) await moveTo('Rejected');
  };
  const cancel = async () => {
    const body = 'It is closed: its changes are not made, and it can no longer be reviewed.';
    if (await ask('Cancel the change request?', body, 'Cancel change request', true))
      await moveTo('Cancelled');
  };
  const discard = async () => {
    const body = 'Its changes are thrown away: none of them is made.';
    if (!(await ask('Discard the draft?', body, 'Discard draft', true))) return;
    const done = await action.run(() => api.del(base));
    if (!done) return;
    announceDraftChange();
    navigate(changeRequestHref(request.project));
  };

  if (!Object.values(steps).some(Boolean)) return null;
  return (
    <>
      <div class="actions request-actions">
        {steps.submit && (
          <Button variant="primary" busy={action.busy} onClick={() => moveTo('In review')}>
            Submit for review
          </Button>
        )}
        {steps.approve && (
          <Button variant="primary" busy={action.busy} onClick={() => moveTo('Approved')}>
            Approve
          </Button>
        )}
        {steps.apply && (
          <Button variant="primary" busy={action.busy} onClick={apply}>
            {scheduled ? 'Apply now' : 'Apply changes'}
          </Button>
        )}
        {steps.schedule && !scheduling && (
          <Button busy={action.busy} onClick={() => setScheduling(true)}>
            {scheduled ? 'Reschedule…' : 'Schedule…'}
          </Button>
        )}
        {steps.reject && (
          <Button variant="danger" busy={action.busy} onClick={reject}>
            Reject
          </Button>
        )}
        {steps.cancel && (
          <Button busy={action.busy} onClick={cancel}>
            Cancel change request
          </Button>
        )}
        {steps.discard && (
          <Button variant="danger" busy={action.busy} onClick={discard}>
            Discard draft
          </Button>
        )}
      </div>
      {scheduling && steps.schedule && (
        <ScheduleForm
          request={request}
          onSaved={async () => {
            await reload();
            announceDraftChange();
          }}
          onClose={() => setScheduling(false)}
        />
      )}
    </>
  );
}
