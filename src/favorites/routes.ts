import type { AppContext } from '../app-context.js';
import { ProjectFeatureParams } from '../features/core/schemas.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { ProjectParams } from '../projects/schemas.js';
import { favoriteFeature, favoriteProject, unfavoriteFeature, unfavoriteProject } from './service.js';

/** A user's favorite features and projects: shown as `favorite` in the lists that user reads. */
export function favoriteRoutes(app: App, ctx: AppContext): void {
  const tags = ['Favorites'];
  const FEATURE = '/api/admin/projects/:projectId/features/:featureName/favorites';
  const PROJECT = '/api/admin/projects/:projectId/favorites';

  app.post(
    FEATURE,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Make the feature one of your favorites (a user only)',
        params: ProjectFeatureParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      await favoriteFeature(ctx, identityOf(request), projectId, featureName);
      return reply.send();
    },
  );

  app.delete(
    FEATURE,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Take the feature off your favorites',
        params: ProjectFeatureParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      await unfavoriteFeature(ctx, identityOf(request), projectId, featureName);
      return reply.send();
    },
  );

  app.post(
    PROJECT,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Make the project one of your favorites (a user only)',
        params: ProjectParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await favoriteProject(ctx, identityOf(request), request.params.projectId);
      return reply.send();
    },
  );

  app.delete(
    PROJECT,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Take the project off your favorites',
        params: ProjectParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await unfavoriteProject(ctx, identityOf(request), request.params.projectId);
      return reply.send();
    },
  );
}
