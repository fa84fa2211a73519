import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { createPat, listPatsOf, removePat } from './pat-service.js';
import {
  ApiTokenList,
  ApiTokenNameParams,
  ApiTokenParams,
  ApiTokenSchema,
  CreateApiTokenBody,
  CreatePatBody,
  PatList,
  PatParams,
  PatSchema,
  UpdateApiTokenBody,
} from './schemas.js';
import {
  createApiToken,
  listApiTokensFor,
  readApiTokensNamed,
  removeApiToken,
  TOKEN_CREATE_PERMISSIONS,
  TOKEN_DELETE_PERMISSIONS,
  TOKEN_READ_PERMISSIONS,
  updateApiTokenExpiry,
} from './service.js';

export function tokenRoutes(app: App, ctx: AppContext): void {
  const tags = ['API tokens'];

  app.get(
    '/api/admin/api-tokens',
    {
      config: { permission: TOKEN_READ_PERMISSIONS },
      schema: {
        tags,
        summary: 'The API tokens the caller may see (secrets masked)',
        response: { 200: ApiTokenList },
      },
    },
    async (request) => listApiTokensFor(ctx, identityOf(request)),
  );

  app.post(
    '/api/admin/api-tokens',
    {
      config: { permission: TOKEN_CREATE_PERMISSIONS },
      schema: {
        tags,
        summary: 'Create an API token; its secret is shown only in this answer',
        body: CreateApiTokenBody,
        response: { 201: ApiTokenSchema },
      },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      const token = await createApiToken(ctx, identity, actorOf(identity), request.body);
      return reply.code(201).send(token);
    },
  );

  app.get(
    '/api/admin/api-tokens/:name',
    {
      config: { permission: TOKEN_READ_PERMISSIONS },
      schema: {
        tags,
        summary: 'The API tokens with this name the caller may see (secrets masked)',
        params: ApiTokenNameParams,
        response: { 200: ApiTokenList },
      },
    },
    async (request) => readApiTokensNamed(ctx, identityOf(request), request.params.name),
  );

  app.put(
    '/api/admin/api-tokens/:token',
    {
      config: { permission: TOKEN_CREATE_PERMISSIONS },
      schema: {
        tags,
        summary: "Change an API token's expiry (whoever may create tokens of its kind)",
        params: ApiTokenParams,
        body: UpdateApiTokenBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      await updateApiTokenExpiry(
        ctx,
        identity,
        actorOf(identity),
        request.params.token,
        request.body.expiresAt,
      );
      return reply.send();
    },
  );

  app.delete(
    '/api/admin/api-tokens/:token',
    {
      config: { permission: TOKEN_DELETE_PERMISSIONS },
      schema: { tags, summary: 'Delete an API token', params: ApiTokenParams, response: { 200: NoContent } },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      await removeApiToken(ctx, identity, actorOf(identity), request.params.token);
      return reply.send();
    },
  );

  const patTags = ['Personal access tokens'];

  app.get(
    '/api/admin/user/tokens',
    {
      config: { permission: 'NONE' },
      schema: { tags: patTags, summary: "The caller's personal access tokens", response: { 200: PatList } },
    },
    async (request) => listPatsOf(ctx, identityOf(request)),
  );

  app.post(
    '/api/admin/user/tokens',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: patTags,
        summary: 'Create a personal access token that acts as the caller; its secret is shown only here',
        body: CreatePatBody,
        response: { 201: PatSchema },
      },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      return reply.code(201).send(await createPat(ctx, identity, actorOf(identity), request.body));
    },
  );

  app.delete(
    '/api/admin/user/tokens/:id',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: patTags,
        summary: 'Delete one of your personal access tokens',
        params: PatParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      await removePat(ctx, identity, actorOf(identity), request.params.id);
      return reply.send();
    },
  );
}
