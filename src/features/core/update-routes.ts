import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import { ProjectParams } from '../../projects/schemas.js';
import {
  ChangeProjectBody,
  FeatureNameBody,
  FeatureSchema,
  PatchBody,
  ProjectFeatureParams,
  StaleBody,
  UpdateFeatureBody,
} from './schemas.js';
import { assertFeatureNameFree } from './update-service.js';

/** Changing features: metadata (PUT, E16 PATCH), staleness, moving (E7), name validation. */
export function featureUpdateRoutes(app: App, ctx: AppContext): void {
  const tags = ['Features'];

  app.put(
    '/api/admin/projects/:projectId/features/:featureName',
    {
      config: changeRoute('updateFeature'),
      schema: {
        tags,
        summary: "Replace a feature's metadata (the name cannot change)",
        params: ProjectFeatureParams,
        body: UpdateFeatureBody,
        response: { 200: FeatureSchema },
      },
    },
    async (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'updateFeature',
        project: request.params.projectId,
        feature: request.params.featureName,
        payload: request.body,
      }),
  );

  app.patch(
    '/api/admin/projects/:projectId/features/:featureName',
    {
      config: changeRoute('patchFeature'),
      schema: {
        tags,
        summary: 'Change a feature with JSON Patch (name, project and variants cannot change here)',
        params: ProjectFeatureParams,
        body: PatchBody,
        response: { 200: FeatureSchema },
      },
    },
    async (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'patchFeature',
        project: request.params.projectId,
        feature: request.params.featureName,
        operations: request.body,
      }),
  );

  app.post(
    '/api/admin/projects/:projectId/stale',
    {
      config: changeRoute('markStale'),
      schema: {
        tags,
        summary: "Mark the project's named features stale, or not",
        params: ProjectParams,
        body: StaleBody,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'markStale',
        project: request.params.projectId,
        features: request.body.features,
        stale: request.body.stale,
      });
      return reply.code(202).send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/features/:featureName/changeProject',
    {
      config: changeRoute('moveFeature'),
      schema: {
        tags,
        summary: 'Move a feature, with its strategies, variants and tags, to another project',
        params: ProjectFeatureParams,
        body: ChangeProjectBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      await applyChange(ctx, identityOf(request), {
        action: 'moveFeature',
        project: projectId,
        feature: featureName,
        newProject: request.body.newProjectId,
      });
      return reply.send();
    },
  );

  app.post(
    '/api/admin/features/validate',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Check a new feature name: 200 when free, 409 when taken (archived features too)',
        body: FeatureNameBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await assertFeatureNameFree(ctx.db, request.body.name);
      return reply.send();
    },
  );
}
