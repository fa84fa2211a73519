import type { AppContext } from '../app-context.js';
import { applyChange } from '../changes/applier.js';
import { changeRoute } from '../changes/route-config.js';
import { featureEnvironmentPath } from '../features/environments/service.js';
import { UpdateStrategyBody } from '../features/strategies/schemas.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { MilestoneStrategySchema } from '../release-templates/schemas.js';
import {
  AddPlanBody,
  MilestoneStrategyParams,
  PlanEnvironmentParams,
  PlanList,
  PlanMilestoneParams,
  PlanMilestoneSchema,
  PlanParams,
  PlanSchema,
  ProgressionBody,
  ProgressionParams,
  ProgressionSchema,
} from './schemas.js';
import { readReleasePlans } from './service.js';

const PLANS = '/api/admin/projects/:projectId/features/:featureName/environments/:environment/release-plans';

/**
 * A flag environment's release plan (Unleash Enterprise): made from a template, its milestones
 * started by hand; the started one's strategies are served to SDKs. Changes go through the
 * applier, so environments that take change requests refuse them directly.
 */
export function releasePlanRoutes(app: App, ctx: AppContext): void {
  const tags = ['Release plans'];

  // Unleash's first paths, with an underscore, are still served (deprecated) as the same operations.
  for (const [plans, deprecated] of [
    [PLANS, false],
    [PLANS.replace(/release-plans$/, 'release_plans'), true],
  ] as const) {
    app.get(
      plans,
      {
        config: { permission: 'NONE' },
        schema: {
          tags,
          deprecated,
          summary: "The flag environment's release plan, as a list (one at most)",
          params: PlanEnvironmentParams,
          response: { 200: PlanList },
        },
      },
      (request) => readReleasePlans(ctx, featureEnvironmentPath(request.params)),
    );

    app.post(
      plans,
      {
        config: changeRoute('addReleasePlan'),
        schema: {
          tags,
          deprecated,
          summary:
            'Add a plan made from a release template, in place of the one there was; in an environment that is on, its first milestone starts',
          params: PlanEnvironmentParams,
          body: AddPlanBody,
          response: { 200: PlanSchema },
        },
      },
      (request) =>
        applyChange(ctx, identityOf(request), {
          action: 'addReleasePlan',
          at: featureEnvironmentPath(request.params),
          templateId: request.body.templateId,
        }),
    );

    app.delete(
      `${plans}/:planId`,
      {
        config: changeRoute('deleteReleasePlan'),
        schema: {
          tags,
          deprecated,
          summary: 'Remove the release plan: its milestone strategies are no longer served',
          params: PlanParams,
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        await applyChange(ctx, identityOf(request), {
          action: 'deleteReleasePlan',
          at: featureEnvironmentPath(request.params),
          planId: request.params.planId,
        });
        return reply.send();
      },
    );

    app.post(
      `${plans}/:planId/milestones/:milestoneId/start`,
      {
        config: changeRoute('startMilestone'),
        schema: {
          tags,
          deprecated,
          summary:
            'Start a milestone (again): its strategies are served from now on, instead of the last one’s',
          params: PlanMilestoneParams,
          response: { 200: PlanMilestoneSchema },
        },
      },
      (request) =>
        applyChange(ctx, identityOf(request), {
          action: 'startMilestone',
          at: featureEnvironmentPath(request.params),
          planId: request.params.planId,
          milestoneId: request.params.milestoneId,
        }),
    );
  }

  const PROGRESSIONS = PLANS.replace(/release-plans$/, 'progressions');

  app.put(
    `${PROGRESSIONS}/:sourceMilestoneId`,
    {
      config: changeRoute('changeMilestoneProgression'),
      schema: {
        tags,
        summary: 'Start the target milestone by itself this many minutes after the source milestone starts',
        params: ProgressionParams,
        body: ProgressionBody,
        response: { 200: ProgressionSchema },
      },
    },
    (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'changeMilestoneProgression',
        at: featureEnvironmentPath(request.params),
        sourceMilestone: request.params.sourceMilestoneId,
        payload: request.body,
      }),
  );

  app.delete(
    `${PROGRESSIONS}/:sourceMilestoneId`,
    {
      config: changeRoute('deleteMilestoneProgression'),
      schema: {
        tags,
        summary: 'Stop the milestone from starting the next one by itself',
        params: ProgressionParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'deleteMilestoneProgression',
        at: featureEnvironmentPath(request.params),
        sourceMilestone: request.params.sourceMilestoneId,
      });
      return reply.code(204).send();
    },
  );

  app.post(
    `${PROGRESSIONS}/:planId/resume`,
    {
      config: changeRoute('resumeMilestoneProgression'),
      schema: {
        tags,
        summary: "Let the plan's paused progressions run again",
        params: PlanParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'resumeMilestoneProgression',
        at: featureEnvironmentPath(request.params),
        planId: request.params.planId,
      });
      return reply.send();
    },
  );

  app.put(
    PLANS.replace(/release-plans$/, 'milestone-strategies/:strategyId'),
    {
      config: changeRoute('updateMilestoneStrategy'),
      schema: {
        tags,
        summary: "Change a strategy of the plan's milestones; of the started one, SDKs get it at once",
        params: MilestoneStrategyParams,
        body: UpdateStrategyBody,
        response: { 200: MilestoneStrategySchema },
      },
    },
    (request) =>
      applyChange(ctx, identityOf(request), {
        action: 'updateMilestoneStrategy',
        at: featureEnvironmentPath(request.params),
        id: request.params.strategyId,
        payload: request.body,
      }),
  );
}
