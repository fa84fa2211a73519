import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { findUsers, type User } from '../users/queries.js';
import { conflictOf } from './conflicts.js';
import { commentsOf, type ReviewRow, reviewsOf } from './review-store.js';
import { type ChangeRequestRow, type ChangeRow, CLOSED_STATES, changesOf } from './store.js';

/** A user as a change request names them: who made it, a change, a review or a comment. */
export interface UserSummary {
  id: number | null;
  username: string | null;
  imageUrl: string | null;
}

interface ChangeView {
  id: number;
  action: string;
  payload: Record<string, unknown>;
  conflict?: string;
  createdAt: Date;
  createdBy: UserSummary;
}

/** A change request as Unleash answers it (`changeRequestSchema`). */
export interface ChangeRequestView {
  id: number;
  title?: string;
  project: string;
  environment: string;
  minApprovals: number;
  state: ChangeRequestRow['state'];
  stateTimestamps: Record<string, string>;
  createdAt: Date;
  createdBy: UserSummary;
  features: { name: string; conflict?: string; changes: ChangeView[] }[];
  segments: (ChangeView & { name: string })[];
  approvals: { createdAt: Date; createdBy: UserSummary }[];
  rejections: { createdAt: Date; createdBy: UserSummary }[];
  comments: { id: number; text: string; createdAt: Date; createdBy: UserSummary }[];
  /** When scheduled: when, and whether it still waits for then (`pending`), or why not. */
  schedule?: { status: string; scheduledAt: Date; reason?: string; failureReason?: string };
}

function scheduleOf(request: ChangeRequestRow): Pick<ChangeRequestView, 'schedule'> {
  if (request.state !== 'Scheduled' || !request.scheduledAt || !request.scheduleStatus) return {};
  const { scheduleStatus: status, scheduledAt, scheduleReason: reason } = request;
  if (status === 'pending') return { schedule: { status, scheduledAt } };
  const why = reason ?? '';
  // Unleash's older field for a failure's reason is kept beside `reason`.
  return {
    schedule: { status, scheduledAt, reason: why, ...(status === 'failed' ? { failureReason: why } : {}) },
  };
}

function summaryOf(users: ReadonlyMap<number, User>, id: number | null): UserSummary {
  const user = id === null ? undefined : users.get(id);
  if (!user) return { id, username: null, imageUrl: null };
  return { id: user.id, username: user.username ?? user.email ?? user.name, imageUrl: user.imageUrl };
}

function changeView(ctx: AppContext, request: ChangeRequestRow, change: ChangeRow, users: Map<number, User>) {
  const open = !CLOSED_STATES.includes(request.state);
  const conflict = open ? conflictOf(ctx, request, change, change.snapshot) : undefined;
  // The target as it was is shown beside the change, as Unleash's UI reads it, to draw a diff.
  const payload = change.snapshot ? { ...change.payload, snapshot: change.snapshot } : change.payload;
  const view: ChangeView = {
    id: change.id,
    action: change.action,
    payload,
    createdAt: change.createdAt,
    createdBy: summaryOf(users, change.createdByUserId),
  };
  if (conflict) view.conflict = conflict;
  return view;
}

/** The requests whole: their changes (with conflicts, while open), reviews and comments. */
export async function viewsOf(
  ctx: AppContext,
  db: Queryable,
  requests: readonly ChangeRequestRow[],
): Promise<ChangeRequestView[]> {
  const ids = requests.map((r) => r.id);
  // One after the other: `db` may be a transaction, whose one connection takes a query at a time.
  const changes = await changesOf(db, ids);
  const reviews = await reviewsOf(db, ids);
  const comments = await commentsOf(db, ids);
  const userIds = new Set<number>();
  for (const row of [...requests, ...changes, ...comments]) {
    if (row.createdByUserId !== null) userIds.add(row.createdByUserId);
  }
  for (const review of reviews) userIds.add(review.userId);
  const users = new Map((await findUsers(db, [...userIds])).map((u) => [u.id, u]));
  return requests.map((request) => {
    const own = changes.filter((c) => c.changeRequestId === request.id);
    const features = new Map<string, { name: string; conflict?: string; changes: ChangeView[] }>();
    const segments: ChangeRequestView['segments'] = [];
    for (const change of own) {
      const view = changeView(ctx, request, change, users);
      if (change.feature === null) {
        const name =
          (change.payload.name as string | undefined) ?? (change.snapshot?.name as string | undefined);
        segments.push({ ...view, name: name ?? `#${change.payload.id}` });
        continue;
      }
      const feature = features.get(change.feature) ?? { name: change.feature, changes: [] };
      feature.changes.push(view);
      if (view.conflict && !feature.conflict) feature.conflict = view.conflict;
      features.set(change.feature, feature);
    }
    const reviewsBy = (verdict: ReviewRow['verdict']) =>
      reviews
        .filter((r) => r.changeRequestId === request.id && r.verdict === verdict)
        .map((r) => ({ createdAt: r.createdAt, createdBy: summaryOf(users, r.userId) }));
    return {
      id: request.id,
      ...(request.title ? { title: request.title } : {}),
      project: request.project,
      environment: request.environment,
      minApprovals: request.minApprovals,
      state: request.state,
      stateTimestamps: request.stateTimestamps,
      createdAt: request.createdAt,
      createdBy: summaryOf(users, request.createdByUserId),
      features: [...features.values()],
      segments,
      approvals: reviewsBy('approved'),
      rejections: reviewsBy('rejected'),
      comments: comments
        .filter((c) => c.changeRequestId === request.id)
        .map((c) => ({
          id: c.id,
          text: c.text,
          createdAt: c.createdAt,
          createdBy: summaryOf(users, c.createdByUserId),
        })),
      ...scheduleOf(request),
    };
  });
}
