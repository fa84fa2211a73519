import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import { FeatureEnvironmentParams } from '../strategies/schemas.js';
import { BulkToggleBody, BulkToggleParams, SwitchQuery } from './schemas.js';
import { featureEnvironmentPath } from './service.js';

const ENVIRONMENT = '/api/admin/projects/:projectId/features/:featureName/environments/:environment';

/** Turning a feature on and off in an environment, one feature or a list of them. */
export function featureSwitchRoutes(app: App, ctx: AppContext): void {
  const tags = ['Strategies'];

  for (const [suffix, enabled] of [
    ['on', true],
    ['off', false],
  ] as const) {
    app.post(
      `${ENVIRONMENT}/${suffix}`,
      {
        config: changeRoute('updateEnabled'),
        schema: {
          tags,
          summary: enabled
            ? "Turn the feature on in the environment (adds the project's default strategy, or a 100% rollout, when it has no active one)"
            : 'Turn the feature off in the environment',
          params: FeatureEnvironmentParams,
          querystring: SwitchQuery,
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        await applyChange(ctx, identityOf(request), {
          action: 'updateEnabled',
          at: featureEnvironmentPath(request.params),
          enabled,
          shouldActivateDisabledStrategies: request.query.shouldActivateDisabledStrategies === 'true',
        });
        return reply.send();
      },
    );

    app.post(
      `/api/admin/projects/:projectId/bulk_features/environments/:environment/${suffix}`,
      {
        config: changeRoute('updateEnabledOfFeatures'),
        schema: {
          tags,
          summary: `Turn the listed features of the project ${suffix} in the environment, in one transaction`,
          params: BulkToggleParams,
          querystring: SwitchQuery,
          body: BulkToggleBody,
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        await applyChange(ctx, identityOf(request), {
          action: 'updateEnabledOfFeatures',
          project: request.params.projectId,
          environment: request.params.environment,
          features: request.body.features,
          enabled,
          shouldActivateDisabledStrategies:
            request.query.shouldActivateDisabledStrategies === 'true' ||
            request.body.shouldActivateDisabledStrategies === true,
        });
        return reply.send();
      },
    );
  }
}
