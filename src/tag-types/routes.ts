import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  CreateTagTypeBody,
  TagTypeEnvelope,
  TagTypeList,
  TagTypeParams,
  TagTypeSchema,
  TagTypeValidation,
  UpdateTagTypeBody,
} from './schemas.js';
import {
  changeTagType,
  createTagType,
  readTagType,
  readTagTypes,
  removeTagType,
  validateTagType,
} from './service.js';

export function tagTypeRoutes(app: App, ctx: AppContext): void {
  const tags = ['Tags'];

  app.get(
    '/api/admin/tag-types',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'Every tag type', response: { 200: TagTypeList } },
    },
    async () => readTagTypes(ctx.db),
  );

  app.post(
    '/api/admin/tag-types',
    {
      config: { permission: 'CREATE_TAG_TYPE' },
      schema: {
        tags,
        summary: 'Create a tag type',
        body: CreateTagTypeBody,
        response: { 201: TagTypeSchema },
      },
    },
    async (request, reply) => {
      const tagType = await createTagType(ctx, identityOf(request), request.body);
      return reply
        .code(201)
        .header('location', `tag-types/${encodeURIComponent(tagType.name)}`)
        .send(tagType);
    },
  );

  app.post(
    '/api/admin/tag-types/validate',
    {
      config: { permission: ['CREATE_TAG_TYPE', 'UPDATE_TAG_TYPE'] },
      schema: {
        tags,
        summary: 'Check that a tag type could be created: 200 when the name is free, 409 when taken',
        body: CreateTagTypeBody,
        response: { 200: TagTypeValidation },
      },
    },
    async (request) => validateTagType(ctx.db, request.body),
  );

  app.get(
    '/api/admin/tag-types/:name',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'One tag type', params: TagTypeParams, response: { 200: TagTypeEnvelope } },
    },
    async (request) => readTagType(ctx.db, request.params.name),
  );

  app.put(
    '/api/admin/tag-types/:name',
    {
      config: { permission: 'UPDATE_TAG_TYPE' },
      schema: {
        tags,
        summary: "Change a tag type's description and icon",
        params: TagTypeParams,
        body: UpdateTagTypeBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await changeTagType(ctx, identityOf(request), request.params.name, request.body);
      return reply.send();
    },
  );

  app.delete(
    '/api/admin/tag-types/:name',
    {
      config: { permission: 'DELETE_TAG_TYPE' },
      schema: {
        tags,
        summary: 'Delete a tag type with its tags',
        params: TagTypeParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await removeTagType(ctx, identityOf(request), request.params.name);
      return reply.send();
    },
  );
}
