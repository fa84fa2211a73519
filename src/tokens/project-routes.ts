import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { createProjectApiToken, readProjectApiTokens, removeProjectApiToken } from './project-service.js';
import {
  ApiTokenList,
  ApiTokenSchema,
  CreateProjectApiTokenBody,
  ProjectApiTokenParams,
  ProjectApiTokensParams,
} from './schemas.js';

/** A project's own API tokens, for its Owners and Members (and admins). */
export function projectTokenRoutes(app: App, ctx: AppContext): void {
  const tags = ['Projects'];

  app.get(
    '/api/admin/projects/:projectId/api-tokens',
    {
      config: { permission: 'READ_PROJECT_API_TOKEN' },
      schema: {
        tags,
        summary: 'The API tokens that name the project (secrets masked)',
        params: ProjectApiTokensParams,
        response: { 200: ApiTokenList },
      },
    },
    async (request) => readProjectApiTokens(ctx, request.params.projectId),
  );

  app.post(
    '/api/admin/projects/:projectId/api-tokens',
    {
      config: { permission: 'CREATE_PROJECT_API_TOKEN' },
      schema: {
        tags,
        summary: 'Create a client or frontend token for this project only; its secret is shown only here',
        params: ProjectApiTokensParams,
        body: CreateProjectApiTokenBody,
        response: { 201: ApiTokenSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(identityOf(request));
      const token = await createProjectApiToken(ctx, actor, request.params.projectId, request.body);
      return reply.code(201).send(token);
    },
  );

  app.delete(
    '/api/admin/projects/:projectId/api-tokens/:token',
    {
      config: { permission: 'DELETE_PROJECT_API_TOKEN' },
      schema: {
        tags,
        summary: 'Delete a token of this project (one that covers only this project)',
        params: ProjectApiTokenParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, token } = request.params;
      await removeProjectApiToken(ctx, actorOf(identityOf(request)), projectId, token);
      return reply.send();
    },
  );
}
