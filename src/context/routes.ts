import type { AppContext } from '../app-context.js';
import { readContextFieldStrategies, removeContextField } from '../features/usage/service.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  ContextFieldList,
  ContextFieldParams,
  ContextFieldSchema,
  ContextFieldStrategies,
  ContextListQuery,
  ContextNameBody,
  CreateContextFieldBody,
  LegalValueParams,
  LegalValueSchema,
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

export function contextRoutes(app: App, ctx: AppContext): void {
  const tags = ['Context fields'];

  app.get(
    '/api/admin/context',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The instance's context fields; with `?include=project`, every project's too",
        querystring: ContextListQuery,
        response: { 200: ContextFieldList },
      },
    },
    async (request) =>
      readContextFields(
        ctx.db,
        request.visibleProjects,
        request.query.include === 'project' ? 'all' : 'root',
      ),
  );

  app.post(
    '/api/admin/context',
    {
      config: { permission: 'CREATE_CONTEXT_FIELD' },
      schema: {
        tags,
        summary: 'Create a context field, of the instance or (with `project`) of one project',
        body: CreateContextFieldBody,
        response: { 201: ContextFieldSchema },
      },
    },
    async (request, reply) => {
      const field = await createContextField(ctx, identityOf(request), request.body);
      return reply.code(201).header('location', `context/${field.name}`).send(field);
    },
  );

  app.post(
    '/api/admin/context/validate',
    {
      config: { permission: ['CREATE_CONTEXT_FIELD', 'UPDATE_CONTEXT_FIELD'] },
      schema: {
        tags,
        summary: 'Check that a context field name is usable and free: 200, or 409 when taken',
        body: ContextNameBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await validateContextName(ctx.db, request.body.name);
      return reply.send();
    },
  );

  app.get(
    '/api/admin/context/:contextField',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'One context field',
        params: ContextFieldParams,
        response: { 200: ContextFieldSchema },
      },
    },
    async (request) =>
      describeContextField(
        await getContextField(ctx.db, request.params.contextField, { visible: request.visibleProjects }),
      ),
  );

  app.get(
    '/api/admin/context/:contextField/strategies',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary:
          'The strategies (of live and archived features) with a constraint on the field; none for an unknown name',
        params: ContextFieldParams,
        response: { 200: ContextFieldStrategies },
      },
    },
    async (request) =>
      readContextFieldStrategies(ctx.model, request.params.contextField, {
        visible: request.visibleProjects,
      }),
  );

  app.put(
    '/api/admin/context/:contextField',
    {
      config: { permission: 'UPDATE_CONTEXT_FIELD' },
      schema: {
        tags,
        summary:
          "Replace a context field's settings: legal values and stickiness as sent, description and sort order kept when omitted",
        params: ContextFieldParams,
        body: UpdateContextFieldBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await replaceContextField(ctx, identityOf(request), request.params.contextField, request.body);
      return reply.send();
    },
  );

  app.delete(
    '/api/admin/context/:contextField',
    {
      config: { permission: 'DELETE_CONTEXT_FIELD' },
      schema: {
        tags,
        summary: 'Delete a context field no constraint uses',
        params: ContextFieldParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await removeContextField(ctx, identityOf(request), request.params.contextField);
      return reply.send();
    },
  );

  app.post(
    '/api/admin/context/:contextField/legal-values',
    {
      config: { permission: 'UPDATE_CONTEXT_FIELD' },
      schema: {
        tags,
        summary: 'Add a legal value, or change the description of one',
        params: ContextFieldParams,
        body: LegalValueSchema,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await putLegalValue(ctx, identityOf(request), request.params.contextField, request.body);
      return reply.send();
    },
  );

  app.delete(
    '/api/admin/context/:contextField/legal-values/:value',
    {
      config: { permission: 'UPDATE_CONTEXT_FIELD' },
      schema: {
        tags,
        summary: 'Remove a legal value',
        params: LegalValueParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await removeLegalValue(ctx, identityOf(request), request.params.contextField, request.params.value);
      return reply.send();
    },
  );
}
