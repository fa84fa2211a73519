import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { favoriteFeaturesOf } from '../../favorites/service.js';
import { type App, identityOf } from '../../http/route.js';
import { ProjectParams } from '../../projects/schemas.js';
import { featureEnvironmentPath } from '../environments/service.js';
import { FeatureEnvironmentParams } from '../strategies/schemas.js';
import {
  type EnvironmentRelease,
  readFeature,
  readFeatureEnvironment,
  readProjectFeatures,
} from './reads.js';
import {
  CloneFeatureBody,
  CreateFeatureBody,
  FeatureDetails,
  FeatureEnvironmentSchema,
  FeatureSchema,
  ProjectFeatureListText,
  ProjectFeatureParams,
} from './schemas.js';

/**
 * What a flag's environments show of release management, read with the flag: the release plans'
 * room has it (features do not import that room). Only environments with a plan or a safeguard.
 */
export type ReleaseReader = (
  feature: string,
  project: string,
) => Promise<ReadonlyMap<string, EnvironmentRelease>>;

export function featureRoutes(app: App, ctx: AppContext, releasesOf: ReleaseReader): void {
  const tags = ['Features'];

  app.get(
    '/api/admin/projects/:projectId/features',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The project's live features with their environments (your favorites marked)",
        params: ProjectParams,
        response: { 200: ProjectFeatureListText },
      },
    },
    // The body is JSON text made from the read model; the schema above documents it.
    async (request, reply) => {
      const { projectId } = request.params;
      const favorites = await favoriteFeaturesOf(ctx.db, identityOf(request), projectId);
      return reply
        .type('application/json; charset=utf-8')
        .send(readProjectFeatures(ctx.model, projectId, favorites));
    },
  );

  app.post(
    '/api/admin/projects/:projectId/features',
    {
      config: changeRoute('createFeature'),
      schema: {
        tags,
        summary: 'Create a feature, disabled in every environment of the project',
        params: ProjectParams,
        body: CreateFeatureBody,
        response: { 201: FeatureSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(
        await applyChange(ctx, identityOf(request), {
          action: 'createFeature',
          project: request.params.projectId,
          payload: request.body,
        }),
      ),
  );

  app.get(
    '/api/admin/projects/:projectId/features/:featureName',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'A feature with its environments, strategies, variants, lifecycle stage and links',
        params: ProjectFeatureParams,
        response: { 200: FeatureDetails },
      },
    },
    async (request) => {
      const { projectId, featureName } = request.params;
      const favorites = await favoriteFeaturesOf(ctx.db, identityOf(request), projectId);
      const feature = readFeature(ctx.model, projectId, featureName, favorites.has(featureName));
      const releases = await releasesOf(featureName, projectId);
      if (releases.size === 0) return feature;
      return {
        ...feature,
        environments: feature.environments.map((e) => ({ ...e, ...releases.get(e.name) })),
      };
    },
  );

  app.get(
    '/api/admin/projects/:projectId/features/:featureName/environments/:environment',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'A feature in one environment: on or off, its strategies and variants',
        params: FeatureEnvironmentParams,
        response: { 200: FeatureEnvironmentSchema },
      },
    },
    async (request) => {
      const at = featureEnvironmentPath(request.params);
      const read = readFeatureEnvironment(ctx.model, at);
      const releases = await releasesOf(at.featureName, at.project);
      return { ...read, safeguards: [], ...releases.get(at.environment) };
    },
  );

  app.post(
    '/api/admin/projects/:projectId/features/:featureName/clone',
    {
      config: changeRoute('cloneFeature'),
      schema: {
        tags,
        summary: 'Copy a feature under a new name, with its strategies and variants, switched off',
        params: ProjectFeatureParams,
        body: CloneFeatureBody,
        response: { 201: FeatureSchema },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      return reply.code(201).send(
        await applyChange(ctx, identityOf(request), {
          action: 'cloneFeature',
          project: projectId,
          feature: featureName,
          payload: request.body,
        }),
      );
    },
  );
}
