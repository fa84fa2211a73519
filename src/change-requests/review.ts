import type { AppContext } from '../app-context.js';
import { applyApprovedChanges } from '../changes/applier.js';
import { CHANGES } from '../changes/commands.js';
import type { Transaction } from '../db/database.js';
import { type EventInput, recordEvent } from '../events/service.js';
import { ConflictError, NoAccessError, ValidationError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { assertPermission, isAdmin, type RoutePermission } from '../http/permissions.js';
import { assertAuthorOrAdmin, isAuthor, requestOf, userOf } from './access.js';
import { conflictOf } from './conflicts.js';
import { commandOf } from './kinds.js';
import { addReview, insertComment, reviewsOf } from './review-store.js';
import { type ChangeRequestRow, changesOf, type State, setState } from './store.js';

/** The states a client may move a request to (`changeRequestStateSchema`). */
export const REQUESTED_STATES = ['In review', 'Approved', 'Rejected', 'Cancelled', 'Applied'] as const;
export type RequestedState = (typeof REQUESTED_STATES)[number];

export interface StateInput {
  state: RequestedState;
  comment?: string;
}

/** The states each step starts from. */
const FROM: Record<RequestedState, readonly State[]> = {
  'In review': ['Draft'],
  Approved: ['In review'],
  Rejected: ['In review', 'Approved'],
  Cancelled: ['Draft', 'In review', 'Approved'],
  Applied: ['Approved'],
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

function event(
  request: ChangeRequestRow,
  type: EventInput['type'],
  data: Record<string, unknown> = {},
): EventInput {
  return {
    type,
    project: request.project,
    environment: request.environment,
    data: { changeRequestId: request.id, ...data },
  };
}

type Step = (tx: Transaction, request: ChangeRequestRow, identity: Identity) => Promise<EventInput[]>;

const STEPS: Record<Exclude<RequestedState, 'Applied'>, Step> = {
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
    assertReviewer(identity, request);
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
  const step = STEPS[input.state];
  await ctx.db.transaction(async (tx) => {
    const request = await requestOf(tx, identity, project, id, 'update');
    assertStep(request, input.state);
    const events = await step(tx, request, identity);
    await comment(tx, request, identity, input.comment);
    for (const e of events) recordEvent(tx, actorOf(identity), e);
  });
}

/**
 * The caller as the changes of an approved request run: holding, in its environment, the
 * permissions of changes. The approval stands for them: switching on a flag with no strategy adds
 * one, which the reviewers saw (as in Unleash) but the one who applies may not be allowed to add.
 */
function approvedFor(identity: Identity, request: ChangeRequestRow): Identity {
  if (identity.kind !== 'user') return identity;
  const permissions = new Set<string>(
    Object.values(CHANGES).flatMap((c): readonly string[] => {
      const p: RoutePermission = c.permission;
      return typeof p === 'string' ? [p] : p;
    }),
  );
  permissions.delete('NONE');
  const granted = [...permissions].map((permission) => ({
    permission,
    project: request.project,
    environment: request.environment,
  }));
  return { ...identity, grants: [...identity.grants, ...granted] };
}

/**
 * Applies an approved request: its changes, as the caller, in one transaction with its new state,
 * or none of them. A change whose target changed since it was added (a conflict) stops it: it was
 * not what the reviewers approved.
 */
async function applyRequest(ctx: AppContext, identity: Identity, project: string, id: number, text?: string) {
  let request = await requestOf(ctx.db, identity, project, id);
  await applyApprovedChanges(ctx, approvedFor(identity, request), {
    async commands(tx) {
      request = await requestOf(tx, identity, project, id, 'update');
      assertPermission(identity, 'APPLY_CHANGE_REQUEST', request);
      assertStep(request, 'Applied');
      const changes = await changesOf(tx, [id]);
      for (const change of changes) {
        const conflict = conflictOf(ctx, request, change, change.snapshot);
        if (conflict) throw new ConflictError(`The change request cannot be applied: ${conflict}`);
      }
      return changes.map((change) => commandOf(request!, change));
    },
    async applied(tx) {
      await setState(tx, id, 'Applied');
      await comment(tx, request!, identity, text);
      recordEvent(tx, actorOf(identity), event(request!, 'change-request-applied'));
    },
  });
}
