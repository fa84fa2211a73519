import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { ProjectParams } from '../projects/schemas.js';
import { addComment, changeTitle, setReviewers } from './details.js';
import {
  readActionable,
  readAvailableReviewers,
  readCounts,
  readPending,
  readPendingForFeature,
  readRequestedReviewers,
  readScheduled,
  searchRequests,
} from './queries.js';
import {
  ChangeRequestCounts,
  ChangeRequestList,
  ChangeRequestParams,
  CommentBody,
  FeatureParams,
  ReviewerParams,
  Reviewers,
  ReviewersBody,
  ScheduledList,
  ScheduledQuery,
  SearchQuery,
  SearchResult,
  TitleBody,
} from './schemas.js';

const BASE = '/api/admin/projects/:projectId/change-requests';

/** What surrounds a request's review: its title, comments and reviewers, and the overviews of many. */
export function changeRequestReviewRoutes(app: App, ctx: AppContext, tags: string[]): void {
  app.put(
    `${BASE}/:id/title`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Name the change request (its author or an Admin)',
        params: ChangeRequestParams,
        body: TitleBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, id } = request.params;
      await changeTitle(ctx, identityOf(request), projectId, id, request.body.title);
      return reply.code(204).send();
    },
  );

  app.post(
    `${BASE}/:id/comments`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Comment on the change request',
        params: ChangeRequestParams,
        body: CommentBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, id } = request.params;
      await addComment(ctx, identityOf(request), projectId, id, request.body.text);
      return reply.code(204).send();
    },
  );

  app.get(
    `${BASE}/:id/approvers`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The users the change request asks to review it',
        params: ChangeRequestParams,
        response: { 200: Reviewers },
      },
    },
    (request) =>
      readRequestedReviewers(ctx, identityOf(request), request.params.projectId, request.params.id),
  );

  app.put(
    `${BASE}/:id/approvers`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Ask these users (at most 10) to review the change request, instead of those asked before',
        params: ChangeRequestParams,
        body: ReviewersBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, id } = request.params;
      await setReviewers(ctx, identityOf(request), projectId, id, request.body.reviewers);
      return reply.code(204).send();
    },
  );

  app.get(
    `${BASE}/available-reviewers/:environment`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The users who may approve change requests in the environment',
        params: ReviewerParams,
        response: { 200: Reviewers },
      },
    },
    (request) => readAvailableReviewers(ctx, request.params.projectId, request.params.environment),
  );

  for (const path of [`${BASE}/pending`, `${BASE}/open`]) {
    app.get(
      path,
      {
        config: { permission: 'NONE' },
        schema: {
          tags,
          summary: "The caller's change requests of the project that are not closed",
          params: ProjectParams,
          response: { 200: ChangeRequestList },
        },
      },
      (request) => readPending(ctx, identityOf(request), request.params.projectId),
    );
  }

  app.get(
    `${BASE}/pending/:featureName`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The change requests not closed that change the flag (of drafts, the caller’s own)',
        params: FeatureParams,
        response: { 200: ChangeRequestList },
      },
    },
    (request) =>
      readPendingForFeature(ctx, identityOf(request), request.params.projectId, request.params.featureName),
  );

  app.get(
    `${BASE}/count`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "How many of the project's change requests are in each state",
        params: ProjectParams,
        response: { 200: ChangeRequestCounts },
      },
    },
    (request) => readCounts(ctx, request.params.projectId),
  );

  app.get(
    `${BASE}/actionable`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'How many of the project’s change requests wait for the caller to review or apply them',
        params: ProjectParams,
      },
    },
    (request) => readActionable(ctx, identityOf(request), request.params.projectId),
  );

  app.get(
    `${BASE}/scheduled`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The scheduled change requests that change these flags, strategies or flags’ variants',
        params: ProjectParams,
        querystring: ScheduledQuery,
        response: { 200: ScheduledList },
      },
    },
    (request) => readScheduled(ctx, identityOf(request), request.params.projectId, request.query),
  );

  app.get(
    '/api/admin/search/change-requests',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Change requests of every project the caller sees, newest first',
        querystring: SearchQuery,
        response: { 200: SearchResult },
      },
    },
    (request) => searchRequests(ctx, identityOf(request), request.visibleProjects, request.query),
  );
}
