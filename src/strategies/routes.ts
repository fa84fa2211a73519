import type { AppContext } from '../app-context.js';
import { removeStrategyType } from '../features/usage/service.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  CreateStrategyTypeBody,
  StrategyDefinitionList,
  StrategyDefinitionSchema,
  StrategyNameParams,
  StrategyTypeParams,
  UpdateStrategyTypeBody,
} from './schemas.js';
import {
  changeStrategyType,
  createStrategyType,
  readStrategyDefinition,
  readStrategyDefinitions,
  setStrategyTypeDeprecated,
} from './service.js';

/**
 * Strategy types: the built-in ones and the custom ones an Admin defines (Unleash's
 * CREATE_STRATEGY, UPDATE_STRATEGY and DELETE_STRATEGY, which only its Admin role holds).
 */
export function strategyTypeRoutes(app: App, ctx: AppContext): void {
  const tags = ['Strategies'];

  app.get(
    '/api/admin/strategies',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The strategy types and their parameters',
        response: { 200: StrategyDefinitionList },
      },
    },
    async () => readStrategyDefinitions(ctx.db),
  );

  app.post(
    '/api/admin/strategies',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Create a custom strategy type',
        body: CreateStrategyTypeBody,
        response: { 201: StrategyDefinitionSchema },
      },
    },
    async (request, reply) => {
      const created = await createStrategyType(ctx, identityOf(request), request.body);
      return reply
        .code(201)
        .header('location', `strategies/${encodeURIComponent(created.name)}`)
        .send(created);
    },
  );

  app.get(
    '/api/admin/strategies/:name',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'One strategy type',
        params: StrategyNameParams,
        response: { 200: StrategyDefinitionSchema },
      },
    },
    async (request) => readStrategyDefinition(ctx.db, request.params.name),
  );

  app.put(
    '/api/admin/strategies/:name',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary:
          'Change a custom strategy type: its parameters become those sent; title and description change when sent',
        params: StrategyNameParams,
        body: UpdateStrategyTypeBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await changeStrategyType(ctx, identityOf(request), request.params.name, request.body);
      return reply.send();
    },
  );

  app.delete(
    '/api/admin/strategies/:name',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Delete a custom strategy type that no feature strategy uses',
        params: StrategyNameParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await removeStrategyType(ctx, identityOf(request), request.params.name);
      return reply.send();
    },
  );

  for (const [action, deprecated] of [
    ['deprecate', true],
    ['reactivate', false],
  ] as const) {
    app.post(
      `/api/admin/strategies/:strategyName/${action}`,
      {
        config: { permission: 'ADMIN' },
        schema: {
          tags,
          summary: deprecated
            ? 'Deprecate a strategy type: it is no longer offered for new strategies, those using it keep working'
            : 'Offer a deprecated strategy type again',
          params: StrategyTypeParams,
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        await setStrategyTypeDeprecated(ctx, identityOf(request), request.params.strategyName, deprecated);
        return reply.send();
      },
    );
  }
}
