import type { AppContext } from '../app-context.js';
import { addEnvironmentToProject, removeEnvironmentFromProject } from '../features/core/project-changes.js';
import { setDefaultStrategy } from '../features/strategies/default-strategy-service.js';
import { DefaultStrategyBody, DefaultStrategySchema } from '../features/strategies/schemas.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { ProjectParams } from '../projects/schemas.js';
import { readProjectEnvironments } from '../projects/service.js';
import {
  CreateEnvironmentBody,
  EnvironmentList,
  EnvironmentParams,
  EnvironmentSchema,
  NameBody,
  ProjectEnvironmentBody,
  ProjectEnvironmentList,
  ProjectEnvironmentParams,
  SortOrderBody,
  UpdateEnvironmentBody,
} from './schemas.js';
import {
  changeEnvironment,
  createEnvironment,
  getEnvironment,
  readEnvironments,
  removeEnvironment,
  setEnvironmentEnabled,
  setSortOrder,
  validateEnvironmentName,
} from './service.js';

export function environmentRoutes(app: App, ctx: AppContext): void {
  const tags = ['Environments'];

  app.get(
    '/api/admin/environments',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'Every environment, in sort order', response: { 200: EnvironmentList } },
    },
    async () => readEnvironments(ctx.db),
  );

  app.post(
    '/api/admin/environments',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Create an environment (linked to no project yet)',
        body: CreateEnvironmentBody,
        response: { 201: EnvironmentSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createEnvironment(ctx, identityOf(request), request.body)),
  );

  app.post(
    '/api/admin/environments/validate',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Check that an environment name is free: 200, or 409 when taken',
        body: NameBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await validateEnvironmentName(ctx.db, request.body.name);
      return reply.send();
    },
  );

  app.put(
    '/api/admin/environments/sort-order',
    {
      config: { permission: 'ADMIN' },
      schema: { tags, summary: 'Reorder environments', body: SortOrderBody, response: { 200: NoContent } },
    },
    async (request, reply) => {
      await setSortOrder(ctx, identityOf(request), request.body);
      return reply.send();
    },
  );

  app.get(
    '/api/admin/environments/project/:projectId',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Every environment, each saying whether the project has it',
        params: ProjectParams,
        response: { 200: ProjectEnvironmentList },
      },
    },
    async (request) => readProjectEnvironments(ctx, request.params.projectId),
  );

  app.get(
    '/api/admin/environments/:name',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'One environment',
        params: EnvironmentParams,
        response: { 200: EnvironmentSchema },
      },
    },
    async (request) => getEnvironment(ctx.db, request.params.name),
  );

  app.put(
    '/api/admin/environments/update/:name',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: "Change an environment's type or sort order",
        params: EnvironmentParams,
        body: UpdateEnvironmentBody,
        response: { 200: EnvironmentSchema },
      },
    },
    async (request) => changeEnvironment(ctx, identityOf(request), request.params.name, request.body),
  );

  app.delete(
    '/api/admin/environments/:name',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Delete an environment with its feature settings and strategies',
        params: EnvironmentParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await removeEnvironment(ctx, identityOf(request), request.params.name);
      return reply.send();
    },
  );

  for (const [suffix, enabled] of [
    ['on', true],
    ['off', false],
  ] as const) {
    app.post(
      `/api/admin/environments/:name/${suffix}`,
      {
        config: { permission: 'ADMIN' },
        schema: {
          tags,
          summary: enabled
            ? 'Enable an environment'
            : 'Disable an environment (new projects no longer get it)',
          params: EnvironmentParams,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        await setEnvironmentEnabled(ctx, identityOf(request), request.params.name, enabled);
        return reply.code(204).send();
      },
    );
  }

  app.post(
    '/api/admin/projects/:projectId/environments',
    {
      config: { permission: 'UPDATE_PROJECT' },
      schema: {
        tags: ['Projects'],
        summary: "Link an environment to a project; the project's features get it, disabled",
        params: ProjectParams,
        body: ProjectEnvironmentBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await addEnvironmentToProject(
        ctx,
        identityOf(request),
        request.params.projectId,
        request.body.environment,
      );
      return reply.send();
    },
  );

  app.delete(
    '/api/admin/projects/:projectId/environments/:environment',
    {
      config: { permission: 'UPDATE_PROJECT' },
      schema: {
        tags: ['Projects'],
        summary: "Unlink an environment from a project; the project's features lose it",
        params: ProjectEnvironmentParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, environment } = request.params;
      await removeEnvironmentFromProject(ctx, identityOf(request), projectId, environment);
      return reply.send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/environments/:environment/default-strategy',
    {
      config: { permission: 'UPDATE_PROJECT' },
      schema: {
        tags: ['Projects'],
        summary:
          'Set the strategy a feature gets when switched on in this environment of the project without an active one',
        params: ProjectEnvironmentParams,
        body: DefaultStrategyBody,
        response: { 200: DefaultStrategySchema },
      },
    },
    async (request) => {
      const { projectId, environment } = request.params;
      return setDefaultStrategy(ctx, identityOf(request), projectId, environment, request.body);
    },
  );
}
