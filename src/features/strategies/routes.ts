import type { AppContext } from '../../app-context.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import { featureEnvironmentPath } from '../environments/service.js';
import { reorderStrategies } from './order-service.js';
import { patchStrategy } from './patch.js';
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
import { addStrategy, readStrategies, readStrategy, removeStrategy, replaceStrategy } from './service.js';

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
      config: { permission: 'CREATE_FEATURE_STRATEGY' },
      schema: {
        tags,
        summary: 'Add a strategy, after the others unless `sortOrder` is given',
        params: FeatureEnvironmentParams,
        body: CreateStrategyBody,
        response: { 200: FeatureStrategySchema },
      },
    },
    async (request) =>
      addStrategy(ctx, identityOf(request), featureEnvironmentPath(request.params), request.body),
  );

  app.post(
    `${STRATEGIES}/set-sort-order`,
    {
      config: { permission: 'UPDATE_FEATURE_STRATEGY' },
      schema: {
        tags,
        summary: 'Set the positions of strategies: `[{ id, sortOrder }]`',
        params: FeatureEnvironmentParams,
        body: SortOrderBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await reorderStrategies(ctx, identityOf(request), featureEnvironmentPath(request.params), request.body);
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
      config: { permission: 'UPDATE_FEATURE_STRATEGY' },
      schema: {
        tags,
        summary: "Replace a strategy's configuration",
        params: StrategyParams,
        body: UpdateStrategyBody,
        response: { 200: FeatureStrategySchema },
      },
    },
    async (request) =>
      replaceStrategy(
        ctx,
        identityOf(request),
        featureEnvironmentPath(request.params),
        request.params.strategyId,
        request.body,
      ),
  );

  app.patch(
    `${STRATEGIES}/:strategyId`,
    {
      config: { permission: 'UPDATE_FEATURE_STRATEGY' },
      schema: {
        tags,
        summary: 'Change a strategy with JSON Patch; the result is checked and stored as by PUT',
        params: StrategyParams,
        body: StrategyPatch,
        response: { 200: FeatureStrategySchema },
      },
    },
    async (request) =>
      patchStrategy(
        ctx,
        identityOf(request),
        featureEnvironmentPath(request.params),
        request.params.strategyId,
        request.body,
      ),
  );

  app.delete(
    `${STRATEGIES}/:strategyId`,
    {
      config: { permission: 'DELETE_FEATURE_STRATEGY' },
      schema: { tags, summary: 'Remove a strategy', params: StrategyParams, response: { 200: NoContent } },
    },
    async (request, reply) => {
      await removeStrategy(
        ctx,
        identityOf(request),
        featureEnvironmentPath(request.params),
        request.params.strategyId,
      );
      return reply.send();
    },
  );
}
