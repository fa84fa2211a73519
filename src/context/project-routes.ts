import type { AppContext } from '../app-context.js';
import { readContextFieldStrategies, removeContextField } from '../features/usage/service.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { ProjectParams } from '../projects/schemas.js';
import { getProject } from '../projects/service.js';
import {
  ContextFieldList,
  ContextFieldSchema,
  ContextFieldStrategies,
  ContextListQuery,
  ContextNameBody,
  CreateContextFieldBody,
  LegalValueSchema,
  ProjectContextParams,
  ProjectLegalValueParams,
  UpdateContextFieldBody,
} from './schemas.js';
import {
  createContextField,
  describeContextField,
  getContextField,
  putLegalValue,
  readContextFields,
  removeLegalValue,
  replaceContextField,
  validateContextName,
} from './service.js';

/**
 * The context fields of one project, as Unleash 8 has them: only the project's features and
 * segments may use them. Changing them takes the instance-wide permission or the project's
 * UPDATE_PROJECT (its Owners).
 */
export function projectContextRoutes(app: App, ctx: AppContext): void {
  const tags = ['Context fields'];
  const base = '/api/admin/projects/:projectId/context';

  app.get(
    base,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The project's context fields; with `?include=root`, the instance's too",
        params: ProjectParams,
        querystring: ContextListQuery,
        response: { 200: ContextFieldList },
      },
    },
    async (request) =>
      readContextFields(ctx.db, request.visibleProjects, {
        project: request.params.projectId,
        withRoot: request.query.include === 'root',
      }),
  );

  app.post(
    base,
    {
      config: { permission: ['CREATE_CONTEXT_FIELD', 'UPDATE_PROJECT'] },
      schema: {
        tags,
        summary: 'Create a context field of the project (a `project` in the body is ignored)',
        params: ProjectParams,
        body: CreateContextFieldBody,
        response: { 201: ContextFieldSchema },
      },
    },
    async (request, reply) => {
      const project = request.params.projectId;
      const field = await createContextField(ctx, identityOf(request), request.body, project);
      return reply.code(201).header('location', `context/${field.name}`).send(field);
    },
  );

  app.post(
    `${base}/validate`,
    {
      config: { permission: ['CREATE_CONTEXT_FIELD', 'UPDATE_CONTEXT_FIELD', 'UPDATE_PROJECT'] },
      schema: {
        tags,
        summary:
          'Check that a context field name is usable and free (names are shared with the instance): 200, or 409',
        params: ProjectParams,
        body: ContextNameBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await getProject(ctx.db, request.params.projectId);
      await validateContextName(ctx.db, request.body.name);
      return reply.send();
    },
  );

  app.get(
    `${base}/:contextField`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'One context field of the project',
        params: ProjectContextParams,
        response: { 200: ContextFieldSchema },
      },
    },
    async (request) => {
      const { projectId: project, contextField } = request.params;
      await getProject(ctx.db, project);
      return describeContextField(await getContextField(ctx.db, contextField, { project }));
    },
  );

  app.put(
    `${base}/:contextField`,
    {
      config: { permission: ['UPDATE_CONTEXT_FIELD', 'UPDATE_PROJECT'] },
      schema: {
        tags,
        summary: "Replace a project context field's settings, as the instance's path does",
        params: ProjectContextParams,
        body: UpdateContextFieldBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId: project, contextField } = request.params;
      await replaceContextField(ctx, identityOf(request), contextField, request.body, project);
      return reply.send();
    },
  );

  app.delete(
    `${base}/:contextField`,
    {
      config: { permission: ['DELETE_CONTEXT_FIELD', 'UPDATE_PROJECT'] },
      schema: {
        tags,
        summary: 'Delete a context field of the project that no constraint uses',
        params: ProjectContextParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId: project, contextField } = request.params;
      await removeContextField(ctx, identityOf(request), contextField, project);
      return reply.send();
    },
  );

  app.get(
    `${base}/:contextField/strategies`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The project's strategies with a constraint on the field (of live and archived features)",
        params: ProjectContextParams,
        response: { 200: ContextFieldStrategies },
      },
    },
    async (request) => {
      const { projectId: project, contextField } = request.params;
      await getProject(ctx.db, project);
      return readContextFieldStrategies(ctx.model, contextField, {
        project,
        visible: request.visibleProjects,
      });
    },
  );

  app.post(
    `${base}/:contextField/legal-values`,
    {
      config: { permission: ['UPDATE_CONTEXT_FIELD', 'UPDATE_PROJECT'] },
      schema: {
        tags,
        summary: 'Add a legal value to a context field of the project, or change the description of one',
        params: ProjectContextParams,
        body: LegalValueSchema,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId: project, contextField } = request.params;
      await putLegalValue(ctx, identityOf(request), contextField, request.body, project);
      return reply.send();
    },
  );

  app.delete(
    `${base}/:contextField/legal-values/:value`,
    {
      config: { permission: ['UPDATE_CONTEXT_FIELD', 'UPDATE_PROJECT'] },
      schema: {
        tags,
        summary: 'Remove a legal value from a context field of the project',
        params: ProjectLegalValueParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId: project, contextField, value } = request.params;
      await removeLegalValue(ctx, identityOf(request), contextField, value, project);
      return reply.send();
    },
  );
}
