import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import { ProjectParams } from '../../projects/schemas.js';
import { TagBody, TagList, TagSchema } from '../../tags/schemas.js';
import { featureNamedScope } from '../core/service.js';
import {
  FeatureTagChangesBody,
  FeatureTagItemParams,
  FeatureTagParams,
  ProjectTagChangesBody,
} from './schemas.js';
import { readFeatureTags } from './service.js';

export function featureTagRoutes(app: App, ctx: AppContext): void {
  const tags = ['Tags'];
  // Feature-tag paths name the feature but not its project: the permission is checked in the
  // feature's project, so a project Member may tag that project's features and no others.
  const featureProject = featureNamedScope(ctx.model);

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
      config: { ...changeRoute('addTag'), ...featureProject },
      schema: {
        tags,
        summary: 'Tag a feature (the tag is created when new)',
        params: FeatureTagParams,
        body: TagBody,
        response: { 201: TagSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(
        await applyChange(ctx, identityOf(request), {
          action: 'addTag',
          feature: request.params.featureName,
          tag: request.body,
        }),
      ),
  );

  app.delete(
    '/api/admin/features/:featureName/tags/:type/:value',
    {
      config: { ...changeRoute('deleteTag'), ...featureProject },
      schema: {
        tags,
        summary: 'Take a tag off a feature',
        params: FeatureTagItemParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { featureName, type, value } = request.params;
      await applyChange(ctx, identityOf(request), {
        action: 'deleteTag',
        feature: featureName,
        tag: { type, value },
      });
      return reply.send();
    },
  );

  app.put(
    '/api/admin/features/:featureName/tags',
    {
      config: { ...changeRoute('changeTags'), ...featureProject },
      schema: {
        tags,
        summary: "Add and take off a feature's tags at once (added first); answers its tags",
        params: FeatureTagParams,
        body: FeatureTagChangesBody,
        response: { 200: TagList },
      },
    },
    async (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'changeTags',
        feature: request.params.featureName,
        payload: request.body,
      }),
  );

  app.put(
    '/api/admin/projects/:projectId/tags',
    {
      config: changeRoute('changeProjectTags'),
      schema: {
        tags,
        summary: "Add and take off tags on several of the project's features at once",
        params: ProjectParams,
        body: ProjectTagChangesBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'changeProjectTags',
        project: request.params.projectId,
        features: request.body.features,
        tags: request.body.tags,
      });
      return reply.send();
    },
  );
}
