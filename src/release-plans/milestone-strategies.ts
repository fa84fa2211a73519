import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { recordEvent } from '../events/service.js';
import { type FeatureEnvironmentPath, liveFeatureEnvironment } from '../features/environments/service.js';
import { checkStrategySettings } from '../features/strategies/check-settings.js';
import type { UpdateStrategyBody } from '../features/strategies/schemas.js';
import { NotFoundError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { checkStrategySegments, distinctSegmentIds } from '../segments/service.js';
import { findPlanOf, type PlanStrategy, savePlanProgress } from './store.js';

/**
 * Changes a strategy of one of the plan's milestones, replacing its settings as a flag's strategy
 * update does; when that milestone is the started one, SDKs get the change with the flag.
 */
export async function changeMilestoneStrategy(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  strategyId: string,
  input: Static<typeof UpdateStrategyBody>,
) {
  return ctx.db.transaction(async (tx) => {
    await liveFeatureEnvironment(tx, at, { lock: 'update' });
    const plan = await findPlanOf(tx, at.featureName, at.environment, { lock: 'update' });
    const milestone = plan?.milestones.find((m) => m.strategies.some((s) => s.id === strategyId));
    if (!plan || !milestone) {
      throw new NotFoundError(
        `The release plan of the flag "${at.featureName}" in the environment "${at.environment}" has no strategy with the id "${strategyId}".`,
      );
    }
    const before = milestone.strategies.find((s) => s.id === strategyId)!;
    const stickiness = ctx.model.project(at.project)?.defaultStickiness ?? 'default';
    const settings = checkStrategySettings(ctx, { ...input, name: input.name ?? before.name }, stickiness);
    if ('groupId' in settings.parameters && !settings.parameters.groupId) {
      settings.parameters = { ...settings.parameters, groupId: at.featureName };
    }
    const segments = distinctSegmentIds(input.segments ?? before.segments);
    await checkStrategySegments(tx, segments, at.project);
    const after: PlanStrategy = {
      ...before,
      ...settings,
      segments,
      sortOrder: input.sortOrder ?? before.sortOrder,
    };
    const milestones = plan.milestones.map((m) =>
      m.id === milestone.id
        ? {
            ...m,
            strategies: m.strategies
              .map((s) => (s.id === strategyId ? after : s))
              .sort((a, b) => a.sortOrder - b.sortOrder),
          }
        : m,
    );
    await savePlanProgress(tx, plan.id, milestones, plan.activeMilestoneId);
    // A strategy of the flag as SDKs may get it: the flag's update, naming its milestone.
    recordEvent(tx, actorOf(identity), {
      type: 'feature-strategy-update',
      project: at.project,
      featureName: at.featureName,
      environment: at.environment,
      data: after,
      preData: before,
    });
    return { ...after, strategyName: after.name };
  });
}
