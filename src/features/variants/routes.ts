import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { type App, identityOf } from '../../http/route.js';
import { ProjectFeatureParams } from '../core/schemas.js';
import { featureEnvironmentPath } from '../environments/service.js';
import { FeatureEnvironmentParams } from '../strategies/schemas.js';
import { FeatureVariants, VariantList, VariantPatch, VariantsBatchBody } from './schemas.js';
import { readVariants } from './service.js';

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
      config: changeRoute('patchVariant'),
      schema: {
        tags,
        summary: 'Replace the variants of a feature in one environment; weights are fixed to total 1000',
        params: FeatureEnvironmentParams,
        body: VariantList,
        response: { 200: FeatureVariants },
      },
    },
    async (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'patchVariant',
        at: featureEnvironmentPath(request.params),
        variants: request.body,
      }),
  );

  app.patch(
    VARIANTS,
    {
      config: changeRoute('jsonPatchVariants'),
      schema: {
        tags,
        summary: 'Change the variants of a feature in one environment with JSON Patch',
        params: FeatureEnvironmentParams,
        body: VariantPatch,
        response: { 200: FeatureVariants },
      },
    },
    async (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'jsonPatchVariants',
        at: featureEnvironmentPath(request.params),
        operations: request.body,
      }),
  );

  app.put(
    '/api/admin/projects/:projectId/features/:featureName/variants-batch',
    {
      config: changeRoute('replaceVariantsInEnvironments'),
      schema: {
        tags,
        summary: 'Set the same variants in several environments of a feature at once',
        params: ProjectFeatureParams,
        body: VariantsBatchBody,
        response: { 200: FeatureVariants },
      },
    },
    async (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'replaceVariantsInEnvironments',
        project: request.params.projectId,
        feature: request.params.featureName,
        payload: request.body,
      }),
  );
}
