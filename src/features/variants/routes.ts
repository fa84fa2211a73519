import type { AppContext } from '../../app-context.js';
import { type App, identityOf } from '../../http/route.js';
import { ProjectFeatureParams } from '../core/schemas.js';
import { featureEnvironmentPath } from '../environments/service.js';
import { FeatureEnvironmentParams } from '../strategies/schemas.js';
import { FeatureVariants, VariantList, VariantPatch, VariantsBatchBody } from './schemas.js';
import { patchVariants, readVariants, replaceVariants, replaceVariantsInEnvironments } from './service.js';

const VARIANTS = '/api/admin/projects/:projectId/features/:featureName/environments/:environment/variants';

export function variantRoutes(app: App, ctx: AppContext): void {
  const tags = ['Variants'];

  app.get(
    VARIANTS,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "A feature's variants in one environment, archived features included",
        params: FeatureEnvironmentParams,
        response: { 200: FeatureVariants },
      },
    },
    async (request) => readVariants(ctx.model, featureEnvironmentPath(request.params)),
  );

  app.put(
    VARIANTS,
    {
      config: { permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS' },
      schema: {
        tags,
        summary: 'Replace the variants of a feature in one environment; weights are fixed to total 1000',
        params: FeatureEnvironmentParams,
        body: VariantList,
        response: { 200: FeatureVariants },
      },
    },
    async (request) =>
      replaceVariants(ctx, identityOf(request), featureEnvironmentPath(request.params), request.body),
  );

  app.patch(
    VARIANTS,
    {
      config: { permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS' },
      schema: {
        tags,
        summary: 'Change the variants of a feature in one environment with JSON Patch',
        params: FeatureEnvironmentParams,
        body: VariantPatch,
        response: { 200: FeatureVariants },
      },
    },
    async (request) =>
      patchVariants(ctx, identityOf(request), featureEnvironmentPath(request.params), request.body),
  );

  app.put(
    '/api/admin/projects/:projectId/features/:featureName/variants-batch',
    {
      config: { permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS' },
      schema: {
        tags,
        summary: 'Set the same variants in several environments of a feature at once',
        params: ProjectFeatureParams,
        body: VariantsBatchBody,
        response: { 200: FeatureVariants },
      },
    },
    async (request) =>
      replaceVariantsInEnvironments(
        ctx,
        identityOf(request),
        request.params.projectId,
        request.params.featureName,
        request.body,
      ),
  );
}
