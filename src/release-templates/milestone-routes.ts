import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  addMilestone,
  addMilestoneStrategy,
  changeMilestone,
  changeMilestoneStrategy,
  removeMilestone,
  removeMilestoneStrategy,
} from './milestone-service.js';
import {
  MilestoneBody,
  MilestoneParams,
  MilestoneSchema,
  MilestoneStrategyBody,
  MilestoneStrategyParams,
  MilestoneStrategySchema,
  TemplateParams,
} from './schemas.js';
import { templateNamedScope } from './service.js';

const MILESTONES = '/api/admin/release-plan-templates/:id/milestones';

/** A template's milestones, and their strategies, one at a time: each a change of the template. */
export function milestoneRoutes(app: App, ctx: AppContext, tags: string[]): void {
  const config = {
    permission: ['RELEASE_PLAN_TEMPLATE_UPDATE', 'UPDATE_PROJECT_RELEASE_TEMPLATE'] as const,
    ...templateNamedScope(ctx),
  };

  app.post(
    MILESTONES,
    {
      config,
      schema: {
        tags,
        summary: 'Add a milestone to a release template',
        params: TemplateParams,
        body: MilestoneBody,
        response: { 200: MilestoneSchema },
      },
    },
    (request) => addMilestone(ctx, identityOf(request), request.params.id, request.body),
  );

  app.put(
    `${MILESTONES}/:milestoneId`,
    {
      config,
      schema: {
        tags,
        summary: "Replace a milestone's name, place and strategies",
        params: MilestoneParams,
        body: MilestoneBody,
        response: { 200: MilestoneSchema },
      },
    },
    (request) =>
      changeMilestone(ctx, identityOf(request), request.params.id, request.params.milestoneId, request.body),
  );

  app.delete(
    `${MILESTONES}/:milestoneId`,
    {
      config,
      schema: { tags, summary: 'Remove a milestone', params: MilestoneParams, response: { 200: NoContent } },
    },
    async (request, reply) => {
      await removeMilestone(ctx, identityOf(request), request.params.id, request.params.milestoneId);
      return reply.send();
    },
  );

  app.post(
    `${MILESTONES}/:milestoneId/strategies`,
    {
      config,
      schema: {
        tags,
        summary: 'Add a strategy to a milestone',
        params: MilestoneParams,
        body: MilestoneStrategyBody,
        response: { 200: MilestoneStrategySchema },
      },
    },
    (request) =>
      addMilestoneStrategy(
        ctx,
        identityOf(request),
        request.params.id,
        request.params.milestoneId,
        request.body,
      ),
  );

  app.put(
    `${MILESTONES}/:milestoneId/strategies/:strategyId`,
    {
      config,
      schema: {
        tags,
        summary: "Replace a milestone's strategy",
        params: MilestoneStrategyParams,
        body: MilestoneStrategyBody,
        response: { 200: MilestoneStrategySchema },
      },
    },
    (request) => changeMilestoneStrategy(ctx, identityOf(request), request.params, request.body),
  );

  app.delete(
    `${MILESTONES}/:milestoneId/strategies/:strategyId`,
    {
      config,
      schema: {
        tags,
        summary: "Remove a milestone's strategy",
        params: MilestoneStrategyParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await removeMilestoneStrategy(ctx, identityOf(request), request.params);
      return reply.send();
    },
  );
}
