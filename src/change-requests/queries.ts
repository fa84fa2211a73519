import type { AppContext } from '../app-context.js';
import { NotFoundError } from '../http/errors.js';
import type { Identity } from '../http/identity.js';
import { can, isAdmin } from '../http/permissions.js';
import type { ProjectVisibility } from '../http/visibility.js';
import { findUsers } from '../users/queries.js';
import { isAuthor, requestOf } from './access.js';
import { approverIds, reviewerIdsOf, reviewsOf } from './review-store.js';
import { CLOSED_STATES, changesOf, countByState, listRequests, STATES, type State } from './store.js';
import { type ChangeRequestView, viewsOf } from './views.js';

/** Unleash lists a project's last 300 requests. */
const PROJECT_LIST_LIMIT = 300;
const OPEN_STATES = STATES.filter((s) => !CLOSED_STATES.includes(s));

function viewerOf(identity: Identity): number | null {
  return identity.kind === 'user' ? identity.userId : null;
}

function assertProject(ctx: AppContext, project: string): void {
  if (!ctx.model.project(project)) throw new NotFoundError(`No project has the id "${project}".`);
}

export async function readRequest(ctx: AppContext, identity: Identity, project: string, id: number) {
  const request = await requestOf(ctx.db, identity, project, id);
  return (await viewsOf(ctx, ctx.db, [request]))[0]!;
}

/** The project's requests, newest first; of drafts, only the caller's own. */
export async function readProjectRequests(
  ctx: AppContext,
  identity: Identity,
  project: string,
  only: { mine?: boolean; states?: readonly State[]; feature?: string } = {},
): Promise<ChangeRequestView[]> {
  assertProject(ctx, project);
  const viewerId = viewerOf(identity);
  if (only.mine && viewerId === null) return [];
  const { rows } = await listRequests(ctx.db, {
    project,
    viewerId,
    ...(only.mine && viewerId !== null ? { createdBy: viewerId } : {}),
    ...(only.states ? { states: only.states } : {}),
    ...(only.feature ? { feature: only.feature } : {}),
    limit: PROJECT_LIST_LIMIT,
  });
  return viewsOf(ctx, ctx.db, rows);
}

/** The caller's requests of the project that are not closed: their draft, those in review, approved or scheduled. */
export function readPending(ctx: AppContext, identity: Identity, project: string) {
  return readProjectRequests(ctx, identity, project, { mine: true, states: OPEN_STATES });
}

/** The requests not closed that change the flag. */
export function readPendingForFeature(ctx: AppContext, identity: Identity, project: string, feature: string) {
  return readProjectRequests(ctx, identity, project, { states: OPEN_STATES, feature });
}

export async function readCounts(ctx: AppContext, project: string) {
  assertProject(ctx, project);
  const counts = await countByState(ctx.db, project);
  const of = (state: State) => counts.get(state) ?? 0;
  return {
    applied: of('Applied'),
    approved: of('Approved'),
    rejected: of('Rejected'),
    scheduled: of('Scheduled'),
    reviewRequired: of('In review'),
    total: [...counts.values()].reduce((a, b) => a + b, 0),
  };
}

/** How many of the project's requests wait for the caller: to be reviewed by them, or applied. */
export async function readActionable(ctx: AppContext, identity: Identity, project: string) {
  assertProject(ctx, project);
  const { rows } = await listRequests(ctx.db, {
    project,
    viewerId: viewerOf(identity),
    states: ['In review', 'Approved'],
    limit: PROJECT_LIST_LIMIT,
  });
  const reviews = await reviewsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  const total = rows.filter((r) => {
    if (r.state === 'Approved') return can(identity, 'APPLY_CHANGE_REQUEST', r);
    const reviewed = reviews.some((v) => v.changeRequestId === r.id && v.userId === viewerOf(identity));
    return (
      can(identity, 'APPROVE_CHANGE_REQUEST', r) && !reviewed && (!isAuthor(identity, r) || isAdmin(identity))
    );
  }).length;
  return { total };
}

export interface ScheduledInput {
  feature?: readonly string[];
  strategyId?: readonly string[];
  variantForFlag?: readonly string[];
}

/** The project's scheduled requests that change these flags, strategies or flags' variants. */
export async function readScheduled(
  ctx: AppContext,
  identity: Identity,
  project: string,
  input: ScheduledInput,
) {
  assertProject(ctx, project);
  const { feature = [], strategyId = [], variantForFlag = [] } = input;
  if (feature.length + strategyId.length + variantForFlag.length === 0) return [];
  const { rows } = await listRequests(ctx.db, {
    project,
    viewerId: viewerOf(identity),
    states: ['Scheduled'],
    limit: PROJECT_LIST_LIMIT,
  });
  const changes = await changesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  const touches = (id: number) =>
    changes.some(
      (c) =>
        c.changeRequestId === id &&
        ((c.feature !== null && feature.includes(c.feature)) ||
          (typeof c.payload.id === 'string' && strategyId.includes(c.payload.id)) ||
          (c.action === 'patchVariant' && c.feature !== null && variantForFlag.includes(c.feature))),
    );
  return rows
    .filter((r) => touches(r.id))
    .map((r) => ({ id: r.id, environment: r.environment, ...(r.title ? { title: r.title } : {}) }));
}

export interface SearchInput {
  createdBy?: number;
  requestedApproverId?: number;
  state?: 'IS:open' | 'IS:closed';
  offset?: number;
  limit?: number;
}

/** Requests of every project the caller sees (`/api/admin/search/change-requests`). */
export async function searchRequests(
  ctx: AppContext,
  identity: Identity,
  visibility: ProjectVisibility,
  input: SearchInput,
) {
  const { rows, total } = await listRequests(ctx.db, {
    viewerId: viewerOf(identity),
    ...(input.state ? { states: input.state === 'IS:open' ? OPEN_STATES : CLOSED_STATES } : {}),
    ...(input.createdBy !== undefined ? { createdBy: input.createdBy } : {}),
    ...(input.requestedApproverId !== undefined ? { requestedApproverId: input.requestedApproverId } : {}),
    hiddenProjects: [...visibility.hidden],
    limit: input.limit ?? 50,
    offset: input.offset ?? 0,
  });
  const views = await viewsOf(ctx, ctx.db, rows);
  return {
    changeRequests: views.map((v) => ({
      id: v.id,
      ...(v.title ? { title: v.title } : {}),
      project: v.project,
      environment: v.environment,
      state: v.state,
      createdAt: v.createdAt,
      createdBy: v.createdBy,
      features: v.features.map((f) => f.name),
      segments: v.segments.map((s) => s.name),
    })),
    total,
  };
}

async function reviewerList(ctx: AppContext, ids: readonly number[]) {
  const users = new Map((await findUsers(ctx.db, ids)).map((u) => [u.id, u]));
  return {
    reviewers: ids.flatMap((id) => {
      const u = users.get(id);
      return u
        ? [{ id: u.id, email: u.email, name: u.name, username: u.username, imageUrl: u.imageUrl }]
        : [];
    }),
  };
}

/** The users the request's author asked to review it. */
export async function readRequestedReviewers(
  ctx: AppContext,
  identity: Identity,
  project: string,
  id: number,
) {
  await requestOf(ctx.db, identity, project, id);
  return reviewerList(ctx, (await reviewerIdsOf(ctx.db, [id])).get(id) ?? []);
}

/** The users who may approve changes in the environment of the project. */
export async function readAvailableReviewers(ctx: AppContext, project: string, environment: string) {
  assertProject(ctx, project);
  return reviewerList(ctx, await approverIds(ctx.db, project, environment));
}
