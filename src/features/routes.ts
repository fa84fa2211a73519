import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { ProjectParams } from '../projects/schemas.js';
import {
  CreateFeatureBody,
  FeatureDetails,
  FeatureSchema,
  ProjectFeatureListText,
  ProjectFeatureParams,
} from './schemas.js';
import { readFeature, readProjectFeatures } from './reads.js';
import { createFeature } from './service.js';

export function featureRoutes(app: App, ctx: AppContext): void {
  const tags = ['Features'];

  app.get(
    '/api/admin/projects/:projectId/features',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The project's live features with their environments",
        params: ProjectParams,
        response: { 200: ProjectFeatureListText },
      },
    },
    // The body is JSON text made from the read model; the schema above documents it.
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send(readProjectFeatures(ctx.model, request.params.projectId)),
  );

  app.post(
    '/api/admin/projects/:projectId/features',
    {
      config: { permission: 'CREATE_FEATURE' },
      schema: {
        tags,
        summary: 'Create a feature, disabled in every environment of the project',
        params: ProjectParams,
        body: CreateFeatureBody,
        response: { 201: FeatureSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await createFeature(ctx, identityOf(request), request.params.projectId, request.body)),
  );

  app.get(
    '/api/admin/projects/:projectId/features/:featureName',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'A feature with its environments, strategies and variants',
        params: ProjectFeatureParams,
        response: { 200: FeatureDetails },
      },
    },
    async (request) => readFeature(ctx.model, request.params.projectId, request.params.featureName),
  );
}
