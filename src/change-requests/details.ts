import type { AppContext } from '../app-context.js';
import { recordEvent } from '../events/service.js';
import { ValidationError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { existingUserIds } from '../users/queries.js';
import { assertAuthorOrAdmin, requestOf, userOf } from './access.js';
import { commentsOf, insertComment, replaceReviewers, reviewerIdsOf } from './review-store.js';
import { CLOSED_STATES, setTitle } from './store.js';

// What a request says around its changes: its title, the discussion, whom it asks to review it.

export async function changeTitle(
  ctx: AppContext,
  identity: Identity,
  project: string,
  id: number,
  title: string,
) {
  await ctx.db.transaction(async (tx) => {
    const request = await requestOf(tx, identity, project, id, 'update');
    assertAuthorOrAdmin(identity, request, 'change its title');
    await setTitle(tx, id, title);
  });
}

const MAX_COMMENTS = 500;

/** Anyone who sees the request may comment on it, closed or not. */
export async function addComment(
  ctx: AppContext,
  identity: Identity,
  project: string,
  id: number,
  text: string,
) {
  const userId = userOf(identity);
  await ctx.db.transaction(async (tx) => {
    await requestOf(tx, identity, project, id, 'update');
    // Anyone who sees the project may comment: a request's discussion is bounded.
    if ((await commentsOf(tx, [id])).length >= MAX_COMMENTS) {
      throw new ValidationError(`A change request takes at most ${MAX_COMMENTS} comments.`);
    }
    await insertComment(tx, id, text, userId);
  });
}

/** Replaces the users the request asks to review it. */
export async function setReviewers(
  ctx: AppContext,
  identity: Identity,
  project: string,
  id: number,
  reviewers: readonly number[],
) {
  const wanted = [...new Set(reviewers)];
  await ctx.db.transaction(async (tx) => {
    const request = await requestOf(tx, identity, project, id, 'update');
    assertAuthorOrAdmin(identity, request, 'choose its reviewers');
    if (CLOSED_STATES.includes(request.state)) {
      throw new ValidationError(
        `A change request in the state "${request.state}" is closed: it asks nobody to review it.`,
      );
    }
    const existing = await existingUserIds(tx, wanted);
    const missing = wanted.filter((u) => !existing.has(u));
    if (missing.length > 0) {
      throw new ValidationError(`No user has the id ${missing.join(', ')}.`, [
        { path: 'reviewers', message: `No user has the id ${missing.join(', ')}.` },
      ]);
    }
    const before = (await reviewerIdsOf(tx, [id])).get(id) ?? [];
    await replaceReviewers(tx, id, wanted);
    recordEvent(tx, actorOf(identity), {
      type: 'change-request-requested-approvers-updated',
      project,
      environment: request.environment,
      data: { changeRequestId: id, reviewers: wanted },
      preData: { changeRequestId: id, reviewers: before },
    });
  });
}
