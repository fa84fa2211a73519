import type { AppContext } from '../app-context.js';
import type { Transaction } from '../db/database.js';
import { type EventInput, recordEvent } from '../events/service.js';
import { NoAccessError, ValidationError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { assertPermission, isAdmin } from '../http/permissions.js';
import { assertAuthorOrAdmin, isAuthor, requestOf, userOf } from './access.js';
import { applyRequestAs, requestEvent } from './apply.js';
import { addReview, insertComment, reviewsOf } from './review-store.js';
import { scheduleRequest, unschedule } from './schedule.js';
import { type ChangeRequestRow, changesOf, type State, setState } from './store.js';

/** The states a client may move a request to (`changeRequestStateSchema`). */
export const REQUESTED_STATES = [
  'In review',
  'Approved',
  'Rejected',
  'Cancelled',
  'Applied',
  'Scheduled',
] as const;
export type RequestedState = (typeof REQUESTED_STATES)[number];

export interface StateInput {
  state: RequestedState;
  comment?: string;
  /** With `Scheduled`: when to apply it. */
  scheduledAt?: string;
}

/** The states each step starts from. */
const FROM: Record<RequestedState, readonly State[]> = {
  'In review': ['Draft'],
  Approved: ['In review'],
  Rejected: ['In review', 'Approved', 'Scheduled'],
  Cancelled: ['Draft', 'In review', 'Approved'],
  Applied: ['Approved', 'Scheduled'],
  Scheduled: ['Approved', 'Scheduled'],
};

function assertStep(request: ChangeRequestRow, to: RequestedState): void {
  if (FROM[to].includes(request.state)) return;
  throw new ValidationError(
    `A change request in the state "${request.state}" cannot become "${to}": only one in the state ${FROM[to]
      .map((s) => `"${s}"`)
      .join(' or ')} can.`,
  );
}

/** Reviewers judge what others ask: an author may not approve or reject their own request, but an Admin may. */
function assertReviewer(identity: Identity, request: ChangeRequestRow): void {
  assertPermission(identity, 'APPROVE_CHANGE_REQUEST', request);
  if (isAuthor(identity, request) && !isAdmin(identity)) {
    throw new NoAccessError('The author of a change request cannot review it: another user must.');
  }
}

const event = requestEvent;

type Step = (tx: Transaction, request: ChangeRequestRow, identity: Identity) => Promise<EventInput[]>;

const STEPS: Record<Exclude<RequestedState, 'Applied' | 'Scheduled'>, Step> = {
  async 'In review'(tx, request, identity) {
    assertAuthorOrAdmin(identity, request, 'send it to review');
    if ((await changesOf(tx, [request.id])).length === 0) {
      throw new ValidationError('A change request with no changes cannot be sent to review.');
    }
    await setState(tx, request.id, 'In review');
    return [event(request, 'change-request-sent-to-review')];
  },
  async Approved(tx, request, identity) {
    assertReviewer(identity, request);
    // Its author may have removed every change while it was in review.
    if ((await changesOf(tx, [request.id])).length === 0) {
      throw new ValidationError('A change request with no changes cannot be approved.');
    }
    if (!(await addReview(tx, request.id, userOf(identity), 'approved'))) {
      throw new ValidationError('You have approved this change request already.');
    }
    const approvals = (await reviewsOf(tx, [request.id])).filter((r) => r.verdict === 'approved').length;
    const events = [event(request, 'change-request-approval-added', { approvals })];
    if (approvals >= request.minApprovals) {
      await setState(tx, request.id, 'Approved');
      events.push(event(request, 'change-request-approved'));
    }
    return events;
  },
  async Rejected(tx, request, identity) {
    // A scheduled request is withdrawn by a reviewer, its author or an Admin, as Unleash's UI offers.
    if (request.state !== 'Scheduled' || !(isAuthor(identity, request) || isAdmin(identity))) {
      assertReviewer(identity, request);
    }
    await unschedule(tx, request);
    await addReview(tx, request.id, userOf(identity), 'rejected');
    await setState(tx, request.id, 'Rejected');
    return [event(request, 'change-request-rejected')];
  },
  async Cancelled(tx, request, identity) {
    assertAuthorOrAdmin(identity, request, 'cancel it');
    await setState(tx, request.id, 'Cancelled');
    return [event(request, 'change-request-cancelled')];
  },
};

async function comment(tx: Transaction, request: ChangeRequestRow, identity: Identity, text?: string) {
  if (text?.trim())
    await insertComment(tx, request.id, text, identity.kind === 'user' ? identity.userId : null);
}

/** Moves a request on: submit, approve, reject, cancel, or apply (see `applyRequest`). */
export async function changeState(
  ctx: AppContext,
  identity: Identity,
  project: string,
  id: number,
  input: StateInput,
): Promise<void> {
  userOf(identity);
  if (input.state === 'Applied') return applyRequest(ctx, identity, project, id, input.comment);
  if (input.state === 'Scheduled') {
    return scheduleRequest(ctx, identity, project, id, input.scheduledAt, input.comment);
  }
  const step = STEPS[input.state];
  await ctx.db.transaction(async (tx) => {
    const request = await requestOf(tx, identity, project, id, 'update');
    assertStep(request, input.state);
    const events = await step(tx, request, identity);
    await comment(tx, request, identity, input.comment);
    for (const e of events) recordEvent(tx, actorOf(identity), e);
  });
}

/** Applies an approved or scheduled request, as one who may apply it. */
async function applyRequest(
  ctx: AppContext,
  identity: Identity,
  project: string,
  id: number,
  comment?: string,
) {
  const request = await requestOf(ctx.db, identity, project, id);
  assertPermission(identity, 'APPLY_CHANGE_REQUEST', request);
  assertStep(request, 'Applied');
  await applyRequestAs(ctx, identity, request, comment === undefined ? {} : { comment });
}
