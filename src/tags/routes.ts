import type { AppContext } from '../app-context.js';
import { featureNamedScope } from '../features/service.js';
import { changeFeatureTags, changeProjectFeatureTags } from '../features/tag-batch-service.js';
import { readFeatureTags, tagFeature, untagFeature } from '../features/tag-service.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { ProjectParams } from '../projects/schemas.js';
import {
  FeatureTagChangesBody,
  FeatureTagItemParams,
  FeatureTagParams,
  ProjectTagChangesBody,
  TagBody,
  TagEnvelope,
  TagList,
  TagParams,
  TagSchema,
  TagTypeParam,
} from './schemas.js';
import { createTag, readTag, readTags, removeTag } from './service.js';

export function tagRoutes(app: App, ctx: AppContext): void {
  const tags = ['Tags'];
  // Feature-tag paths name the feature but not its project: the permission is checked in the
  // feature's project, so a project Member may tag that project's features and no others.
  const featureProject = featureNamedScope(ctx.model);

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

  app.get(
    '/api/admin/features/:featureName/tags',
    {
      config: { permission: 'NONE', ...featureProject },
      schema: { tags, summary: "A feature's tags", params: FeatureTagParams, response: { 200: TagList } },
    },
    async (request) => readFeatureTags(ctx.db, request.params.featureName),
  );

  app.post(
    '/api/admin/features/:featureName/tags',
    {
      config: { permission: 'UPDATE_FEATURE', ...featureProject },
      schema: {
        tags,
        summary: 'Tag a feature (the tag is created when new)',
        params: FeatureTagParams,
        body: TagBody,
        response: { 201: TagSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await tagFeature(ctx, identityOf(request), request.params.featureName, request.body)),
  );

  app.delete(
    '/api/admin/features/:featureName/tags/:type/:value',
    {
      config: { permission: 'UPDATE_FEATURE', ...featureProject },
      schema: {
        tags,
        summary: 'Take a tag off a feature',
        params: FeatureTagItemParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { featureName, type, value } = request.params;
      await untagFeature(ctx, identityOf(request), featureName, { type, value });
      return reply.send();
    },
  );

  app.put(
    '/api/admin/features/:featureName/tags',
    {
      config: { permission: 'UPDATE_FEATURE', ...featureProject },
      schema: {
        tags,
        summary: "Add and take off a feature's tags at once (added first); answers its tags",
        params: FeatureTagParams,
        body: FeatureTagChangesBody,
        response: { 200: TagList },
      },
    },
    async (request) => changeFeatureTags(ctx, identityOf(request), request.params.featureName, request.body),
  );

  app.put(
    '/api/admin/projects/:projectId/tags',
    {
      config: { permission: 'UPDATE_FEATURE' },
      schema: {
        tags,
        summary: "Add and take off tags on several of the project's features at once",
        params: ProjectParams,
        body: ProjectTagChangesBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await changeProjectFeatureTags(
        ctx,
        identityOf(request),
        request.params.projectId,
        request.body.features,
        request.body.tags,
      );
      return reply.send();
    },
  );
}
