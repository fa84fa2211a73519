import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { featureEnvironmentPath } from '../../features/environments/service.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import {
  CreateSafeguardBody,
  EnvironmentParams,
  EnvironmentSafeguardParams,
  PlanOnlyParams,
  PlanSafeguardParams,
} from './schemas.js';

const FLAG_ENV = '/api/admin/projects/:projectId/features/:featureName/environments/:environment';
const PLAN = `${FLAG_ENV}/release-plans/:planId`;

/**
 * Safeguards (Unleash Enterprise's): a metric query with a threshold, on a release plan (a trip
 * pauses its progressions) or on a flag environment (a trip switches the flag off there). One of
 * each at most: PUT makes or replaces it. They are read with the plan and the flag environment.
 */
export function safeguardRoutes(app: App, ctx: AppContext): void {
  const tags = ['Safeguards'];

  app.put(
    `${PLAN}/safeguards`,
    {
      config: changeRoute('changeReleasePlanSafeguard'),
      schema: {
        tags,
        summary: "Set the release plan's safeguard: when its metric passes the threshold, progressions pause",
        params: PlanOnlyParams,
        body: CreateSafeguardBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'changeReleasePlanSafeguard',
        at: featureEnvironmentPath(request.params),
        planId: request.params.planId,
        payload: request.body,
      });
      return reply.code(204).send();
    },
  );

  app.delete(
    `${PLAN}/safeguards/:safeguardId`,
    {
      config: changeRoute('deleteReleasePlanSafeguard'),
      schema: {
        tags,
        summary: "Remove the release plan's safeguard",
        params: PlanSafeguardParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'deleteReleasePlanSafeguard',
        at: featureEnvironmentPath(request.params),
        planId: request.params.planId,
        safeguardId: request.params.safeguardId,
      });
      return reply.code(204).send();
    },
  );

  app.put(
    `${FLAG_ENV}/safeguards`,
    {
      config: changeRoute('changeFeatureEnvSafeguard'),
      schema: {
        tags,
        summary:
          "Set the flag environment's safeguard: when its metric passes the threshold, the flag is switched off there",
        params: EnvironmentParams,
        body: CreateSafeguardBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'changeFeatureEnvSafeguard',
        at: featureEnvironmentPath(request.params),
        payload: request.body,
      });
      return reply.code(204).send();
    },
  );

  app.delete(
    `${FLAG_ENV}/safeguards/:safeguardId`,
    {
      config: changeRoute('deleteFeatureEnvSafeguard'),
      schema: {
        tags,
        summary: "Remove the flag environment's safeguard",
        params: EnvironmentSafeguardParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'deleteFeatureEnvSafeguard',
        at: featureEnvironmentPath(request.params),
        safeguardId: request.params.safeguardId,
      });
      return reply.code(204).send();
    },
  );
}
