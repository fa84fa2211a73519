import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { TagBody, TagEnvelope, TagList, TagParams, TagTypeParam } from './schemas.js';
import { createTag, readTag, readTags, removeTag } from './service.js';

export function tagRoutes(app: App, ctx: AppContext): void {
  const tags = ['Tags'];

  app.get(
    '/api/admin/tags',
    { config: { permission: 'NONE' }, schema: { tags, summary: 'Every tag', response: { 200: TagList } } },
    async () => readTags(ctx.db),
  );

  app.post(
    '/api/admin/tags',
    {
      config: { permission: 'UPDATE_FEATURE' },
      schema: { tags, summary: 'Create a tag', body: TagBody, response: { 201: TagEnvelope } },
    },
    async (request, reply) => {
      const tag = await createTag(ctx, identityOf(request), request.body);
      return reply.code(201).send({ version: 1 as const, tag });
    },
  );

  app.get(
    '/api/admin/tags/:type',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'The tags of one type', params: TagTypeParam, response: { 200: TagList } },
    },
    async (request) => readTags(ctx.db, request.params.type),
  );

  app.get(
    '/api/admin/tags/:type/:value',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'One tag', params: TagParams, response: { 200: TagEnvelope } },
    },
    async (request) => readTag(ctx.db, request.params.type, request.params.value),
  );

  app.delete(
    '/api/admin/tags/:type/:value',
    {
      config: { permission: 'UPDATE_FEATURE' },
      schema: {
        tags,
        summary: 'Delete a tag; features that carry it lose it',
        params: TagParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await removeTag(ctx, identityOf(request), request.params.type, request.params.value);
      return reply.send();
    },
  );
}
