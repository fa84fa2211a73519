import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import { featureEnvironmentPath } from '../environments/service.js';
import { readStrategy } from './locate.js';
import {
  CreateStrategyBody,
  FeatureEnvironmentParams,
  FeatureStrategyList,
  FeatureStrategySchema,
  SortOrderBody,
  StrategyParams,
  StrategyPatch,
  UpdateStrategyBody,
} from './schemas.js';
import { readStrategies } from './service.js';

const ENVIRONMENT = '/api/admin/projects/:projectId/features/:featureName/environments/:environment';
const STRATEGIES = `${ENVIRONMENT}/strategies`;

export function featureStrategyRoutes(app: App, ctx: AppContext): void {
  const tags = ['Strategies'];

  app.get(
    STRATEGIES,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "A feature's strategies in one environment, in evaluation order",
        params: FeatureEnvironmentParams,
        response: { 200: FeatureStrategyList },
      },
    },
    async (request) => readStrategies(ctx.model, featureEnvironmentPath(request.params)),
  );

  app.post(
    STRATEGIES,
    {
      config: changeRoute('addStrategy'),
      schema: {
        tags,
        summary: 'Add a strategy, after the others unless `sortOrder` is given',
        params: FeatureEnvironmentParams,
        body: CreateStrategyBody,
        response: { 200: FeatureStrategySchema },
      },
    },
    async (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'addStrategy',
        at: featureEnvironmentPath(request.params),
        payload: request.body,
      }),
  );

  app.post(
    `${STRATEGIES}/set-sort-order`,
    {
      config: changeRoute('reorderStrategy'),
      schema: {
        tags,
        summary: 'Set the positions of strategies: `[{ id, sortOrder }]`',
        params: FeatureEnvironmentParams,
        body: SortOrderBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'reorderStrategy',
        at: featureEnvironmentPath(request.params),
        payload: request.body,
      });
      return reply.send();
    },
  );

  app.get(
    `${STRATEGIES}/:strategyId`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'One strategy',
        params: StrategyParams,
        response: { 200: FeatureStrategySchema },
      },
    },
    async (request) =>
      readStrategy(ctx.model, featureEnvironmentPath(request.params), request.params.strategyId),
  );

  app.put(
    `${STRATEGIES}/:strategyId`,
    {
      config: changeRoute('updateStrategy'),
      schema: {
        tags,
        summary: "Replace a strategy's configuration",
        params: StrategyParams,
        body: UpdateStrategyBody,
        response: { 200: FeatureStrategySchema },
      },
    },
    async (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'updateStrategy',
        at: featureEnvironmentPath(request.params),
        id: request.params.strategyId,
        payload: request.body,
      }),
  );

  app.patch(
    `${STRATEGIES}/:strategyId`,
    {
      config: changeRoute('patchStrategy'),
      schema: {
        tags,
        summary: 'Change a strategy with JSON Patch; the result is checked and stored as by PUT',
        params: StrategyParams,
        body: StrategyPatch,
        response: { 200: FeatureStrategySchema },
      },
    },
    async (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'patchStrategy',
        at: featureEnvironmentPath(request.params),
        id: request.params.strategyId,
        operations: request.body,
      }),
  );

  app.delete(
    `${STRATEGIES}/:strategyId`,
    {
      config: changeRoute('deleteStrategy'),
      schema: { tags, summary: 'Remove a strategy', params: StrategyParams, response: { 200: NoContent } },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'deleteStrategy',
        at: featureEnvironmentPath(request.params),
        id: request.params.strategyId,
      });
      return reply.send();
    },
  );
}
