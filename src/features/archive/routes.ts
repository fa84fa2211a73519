import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import { ProjectParams } from '../../projects/schemas.js';
import {
  ArchivedFeatureList,
  BatchFeaturesBody,
  FeatureNameParams,
  ProjectFeatureParams,
} from '../core/schemas.js';
import { featureNamedScope } from '../core/service.js';
import { readArchivedFeatures } from './service.js';

/** Archiving (E9), reviving (E12), the archive itself and deleting from it for good. */
export function archiveRoutes(app: App, ctx: AppContext): void {
  const tags = ['Archive'];
  // These paths name a feature without its project: permissions are checked in the feature's project.
  const featureProject = featureNamedScope(ctx.model);

  app.post(
    '/api/admin/projects/:projectId/archive',
    {
      config: changeRoute('archiveFeatures'),
      schema: {
        tags,
        summary: "Archive the project's named features (unknown and archived names are ignored)",
        params: ProjectParams,
        body: BatchFeaturesBody,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'archiveFeatures',
        project: request.params.projectId,
        features: request.body.features,
      });
      return reply.code(202).send();
    },
  );

  app.delete(
    '/api/admin/projects/:projectId/features/:featureName',
    {
      config: changeRoute('archiveFeature'),
      schema: {
        tags,
        summary: 'Archive one feature',
        params: ProjectFeatureParams,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'archiveFeature',
        project: request.params.projectId,
        feature: request.params.featureName,
      });
      return reply.code(202).send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/revive',
    {
      config: changeRoute('reviveFeatures'),
      schema: {
        tags,
        summary: "Revive the project's named archived features, disabled in every environment",
        params: ProjectParams,
        body: BatchFeaturesBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'reviveFeatures',
        project: request.params.projectId,
        features: request.body.features,
      });
      return reply.send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/delete',
    {
      config: changeRoute('deleteFeatures'),
      schema: {
        tags,
        summary: "Delete the project's named archived features for good (live ones are ignored)",
        params: ProjectParams,
        body: BatchFeaturesBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'deleteFeatures',
        project: request.params.projectId,
        features: request.body.features,
      });
      return reply.send();
    },
  );

  app.get(
    '/api/admin/archive/features',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Every archived feature, newest first',
        response: { 200: ArchivedFeatureList },
      },
    },
    async (request) => readArchivedFeatures(ctx.db, request.visibleProjects),
  );

  app.get(
    '/api/admin/archive/features/:projectId',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The project's archived features, newest first",
        params: ProjectParams,
        response: { 200: ArchivedFeatureList },
      },
    },
    async (request) => readArchivedFeatures(ctx.db, request.visibleProjects, request.params.projectId),
  );

  app.post(
    '/api/admin/archive/revive/:featureName',
    {
      config: { ...changeRoute('reviveFeature'), ...featureProject },
      schema: {
        tags,
        summary: 'Revive one archived feature, disabled in every environment',
        params: FeatureNameParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'reviveFeature',
        feature: request.params.featureName,
      });
      return reply.send();
    },
  );

  app.delete(
    '/api/admin/archive/:featureName',
    {
      config: { ...changeRoute('deleteFeature'), ...featureProject },
      schema: {
        tags,
        summary: 'Delete one archived feature for good',
        params: FeatureNameParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'deleteFeature',
        feature: request.params.featureName,
      });
      return reply.send();
    },
  );
}
