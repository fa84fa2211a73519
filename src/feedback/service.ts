import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { AuthenticationRequired } from '../http/errors.js';
import { actorOf, type Identity, type UserIdentity } from '../http/identity.js';
import { type Feedback, findFeedback, listFeedbackOf, saveFeedback } from './store.js';

export interface FeedbackChange {
  neverShow?: boolean;
  given?: string | null;
}

/** Feedback is a person's own record: an API token is nobody, so it cannot have one. */
function requireUser(identity: Identity): UserIdentity {
  if (identity.kind !== 'user') {
    throw new AuthenticationRequired('Feedback belongs to a user: sign in or use a personal access token.');
  }
  return identity;
}

/**
 * E8 and its POST twin: one record per (caller, feedback id). A new record starts as
 * `neverShow: false, given: now`; on an existing one only the fields sent change, read locked so
 * that two changes at once both count. (Two first records at once both start from the defaults
 * and the later one is kept whole: the caller's own nag-screen record needs nothing stronger.)
 */
export async function updateFeedback(
  ctx: AppContext,
  identity: Identity,
  feedbackId: string,
  change: FeedbackChange,
): Promise<Feedback> {
  const user = requireUser(identity);
  return ctx.db.transaction(async (tx) => {
    const before = await findFeedback(tx, user.userId, feedbackId, { lock: 'update' });
    const base = before ?? { userId: user.userId, feedbackId, neverShow: false, given: new Date() };
    const after = await saveFeedback(tx, {
      ...base,
      neverShow: change.neverShow ?? base.neverShow,
      given: change.given === undefined ? base.given : change.given === null ? null : new Date(change.given),
    });
    recordEvent(tx, actorOf(user), { type: 'user-feedback-updated', data: after, preData: before });
    return after;
  });
}

export function listFeedback(db: Queryable, userId: number): Promise<Feedback[]> {
  return listFeedbackOf(db, userId);
}
