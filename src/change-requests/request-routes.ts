import type { AppContext } from '../app-context.js';
import { ProjectEnvironmentParams } from '../environments/schemas.js';
import { NotFoundError } from '../http/errors.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { AdvancedPlaygroundResponseText } from '../playground/schemas.js';
import { ProjectParams } from '../projects/schemas.js';
import { addChanges, discardChange, discardRequest, editChange } from './drafts.js';
import { previewRequest } from './preview.js';
import { readProjectRequests, readRequest } from './queries.js';
import { changeState } from './review.js';
import {
  ChangeBody,
  ChangeParams,
  ChangeRequestList,
  ChangeRequestParams,
  ChangeRequestSchema,
  ChangesBody,
  PreviewBody,
  PreviewParams,
  StateBody,
} from './schemas.js';
import { findChangeRequest } from './store.js';

const BASE = '/api/admin/projects/:projectId/change-requests';

/**
 * A change request's life: changes collected in the caller's draft, edited and discarded, then
 * the request sent to review, approved or rejected, applied or cancelled. Each step checks who may
 * take it (see access.ts and review.ts): the routes let any caller who sees the project in.
 */
export function changeRequestLifeRoutes(app: App, ctx: AppContext, tags: string[]): void {
  app.post(
    '/api/admin/projects/:projectId/environments/:environment/change-requests',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary:
          "Add one change or a list of them to the caller's draft for the environment, made when there is none",
        params: ProjectEnvironmentParams,
        body: ChangesBody,
        response: { 200: ChangeRequestSchema },
      },
    },
    (request) => {
      const { projectId, environment } = request.params;
      const changes = Array.isArray(request.body) ? request.body : [request.body];
      return addChanges(ctx, identityOf(request), { project: projectId, environment }, changes);
    },
  );

  app.get(
    BASE,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The project's change requests, newest first (the last 300); of drafts, the caller's own",
        params: ProjectParams,
        response: { 200: ChangeRequestList },
      },
    },
    (request) => readProjectRequests(ctx, identityOf(request), request.params.projectId),
  );

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'A change request with its changes (and their conflicts), reviews and comments',
        params: ChangeRequestParams,
        response: { 200: ChangeRequestSchema },
      },
    },
    (request) => readRequest(ctx, identityOf(request), request.params.projectId, request.params.id),
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Discard a change request that has not been applied (its author or an Admin)',
        params: ChangeRequestParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await discardRequest(ctx, identityOf(request), request.params.projectId, request.params.id);
      return reply.send();
    },
  );

  app.put(
    `${BASE}/:id/changes/:changeId`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary:
          'Replace a change of the request (the new one has a new id); an approved request is reviewed again',
        params: ChangeParams,
        body: ChangeBody,
        response: { 200: ChangeRequestSchema },
      },
    },
    (request) => {
      const { projectId, id, changeId } = request.params;
      return editChange(ctx, identityOf(request), projectId, id, changeId, request.body);
    },
  );

  app.delete(
    `${BASE}/:id/changes/:changeId`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Remove a change from the request; an approved request is reviewed again',
        params: ChangeParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, id, changeId } = request.params;
      await discardChange(ctx, identityOf(request), projectId, id, changeId);
      return reply.send();
    },
  );

  app.put(
    `${BASE}/:id/state`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary:
          'Send to review (author), approve or reject (APPROVE_CHANGE_REQUEST, not the author unless Admin), apply (APPLY_CHANGE_REQUEST) or cancel (author)',
        params: ChangeRequestParams,
        body: StateBody,
        response: { 200: ChangeRequestSchema },
      },
    },
    async (request) => {
      const { projectId, id } = request.params;
      await changeState(ctx, identityOf(request), projectId, id, request.body);
      return readRequest(ctx, identityOf(request), projectId, id);
    },
  );

  app.post(
    '/api/admin/playground/change-request/:id',
    {
      config: {
        permission: 'NONE',
        // The request's project: hidden from the caller, the request is as absent.
        projectOf: async (request) => {
          const id = Number((request.params as { id?: string }).id);
          return Number.isInteger(id) && Math.abs(id) <= 2147483647
            ? (await findChangeRequest(ctx.db, id))?.project
            : undefined;
        },
        notFound: (request) =>
          new NotFoundError(`No change request has the id ${(request.params as { id?: string }).id}.`),
      },
      schema: {
        tags,
        summary: "The playground in the request's environment, its flags as the request would leave them",
        params: PreviewParams,
        body: PreviewBody,
        response: { 200: AdvancedPlaygroundResponseText },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const found = await findChangeRequest(ctx.db, id);
      if (!found) throw new NotFoundError(`No change request has the id ${id}.`);
      const answer = await previewRequest(
        ctx,
        identityOf(request),
        request.visibleProjects,
        id,
        found.project,
        request.body.context,
      );
      // Bytes, sent as they are: the answer's text was made already.
      return reply.type('application/json; charset=utf-8').send(answer as never);
    },
  );
}
