import type { AppContext } from '../../app-context.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import { ProjectParams } from '../../projects/schemas.js';
import { moveFeature } from './move-service.js';
import {
  ChangeProjectBody,
  FeatureNameBody,
  FeatureSchema,
  PatchBody,
  ProjectFeatureParams,
  StaleBody,
  UpdateFeatureBody,
} from './schemas.js';
import { assertFeatureNameFree, patchFeature, setStale, updateFeature } from './update-service.js';

/** Changing features: metadata (PUT, E16 PATCH), staleness, moving (E7), name validation. */
export function featureUpdateRoutes(app: App, ctx: AppContext): void {
  const tags = ['Features'];

  app.put(
    '/api/admin/projects/:projectId/features/:featureName',
    {
      config: { permission: 'UPDATE_FEATURE' },
      schema: {
        tags,
        summary: "Replace a feature's metadata (the name cannot change)",
        params: ProjectFeatureParams,
        body: UpdateFeatureBody,
        response: { 200: FeatureSchema },
      },
    },
    async (request) =>
      updateFeature(
        ctx,
        identityOf(request),
        request.params.projectId,
        request.params.featureName,
        request.body,
      ),
  );

  app.patch(
    '/api/admin/projects/:projectId/features/:featureName',
    {
      config: { permission: 'UPDATE_FEATURE' },
      schema: {
        tags,
        summary: 'Change a feature with JSON Patch (name, project and variants cannot change here)',
        params: ProjectFeatureParams,
        body: PatchBody,
        response: { 200: FeatureSchema },
      },
    },
    async (request) =>
      patchFeature(
        ctx,
        identityOf(request),
        request.params.projectId,
        request.params.featureName,
        request.body,
      ),
  );

  app.post(
    '/api/admin/projects/:projectId/stale',
    {
      config: { permission: 'UPDATE_FEATURE' },
      schema: {
        tags,
        summary: "Mark the project's named features stale, or not",
        params: ProjectParams,
        body: StaleBody,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      await setStale(
        ctx,
        identityOf(request),
        request.params.projectId,
        request.body.features,
        request.body.stale,
      );
      return reply.code(202).send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/features/:featureName/changeProject',
    {
      config: { permission: 'MOVE_FEATURE_TOGGLE' },
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
      await moveFeature(ctx, identityOf(request), projectId, featureName, request.body.newProjectId);
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
