import { randomUUID } from 'node:crypto';
import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import type { FeatureEnvironmentPath } from '../features/environments/service.js';
import { liveFeatureEnvironment } from '../features/environments/service.js';
import { NotFoundError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { getTemplate, type Template } from '../release-templates/service.js';
import { ulid } from '../release-templates/ulid.js';
import { startIn } from './milestones.js';
import { planSafeguards } from './safeguards/views.js';
import { deletePlan, findPlanOf, insertPlan, type Plan, type PlanMilestone } from './store.js';

export type { PlanMilestone };

/** A plan as Unleash answers it (`releasePlanSchema`). */
export function describePlan(plan: Plan) {
  return {
    id: plan.id,
    discriminator: 'plan' as const,
    name: plan.name,
    description: plan.description,
    featureName: plan.featureName,
    environment: plan.environment,
    createdByUserId: plan.createdByUserId,
    createdAt: plan.createdAt.toISOString(),
    activeMilestoneId: plan.activeMilestoneId,
    releasePlanTemplateId: plan.templateId,
    milestones: plan.milestones.map((m) => describeMilestone(plan, m)),
  };
}

/** A plan as its routes and its flag's read answer it: with its safeguard (one at most), described. */
export function describeGuardedPlan<S>(plan: Plan, safeguards: S[]) {
  return { ...describePlan(plan), safeguards };
}

function describeMilestone(plan: Plan, m: PlanMilestone) {
  return {
    id: m.id,
    name: m.name,
    sortOrder: m.sortOrder,
    releasePlanDefinitionId: plan.id,
    startedAt: m.startedAt,
    transitionCondition: m.transitionCondition,
    progressionExecutedAt: m.progressionExecutedAt,
    pausedAt: m.pausedAt,
    strategies: m.strategies.map((s) => ({ ...s, strategyName: s.name })),
  };
}

/** The template's milestones, in order, as the plan's own: new ids, and the flag's name for an empty groupId. */
export function milestonesOf(template: Template, feature: string): PlanMilestone[] {
  return [...template.milestones]
    .sort((a, b) => a.sortOrder - b.sortOrder)
    .map((m) => {
      const id = ulid();
      return {
        id,
        name: m.name,
        sortOrder: m.sortOrder,
        strategies: m.strategies.map((s) => ({
          ...s,
          id: randomUUID(),
          milestoneId: id,
          parameters:
            'groupId' in s.parameters && !s.parameters.groupId
              ? { ...s.parameters, groupId: feature }
              : s.parameters,
        })),
        startedAt: null,
        transitionCondition: null,
        progressionExecutedAt: null,
        pausedAt: null,
      };
    });
}

function planEvent(plan: Plan, project: string, type: 'release-plan-added' | 'release-plan-removed') {
  const described = describePlan(plan);
  return {
    type,
    project,
    featureName: plan.featureName,
    environment: plan.environment,
    ...(type === 'release-plan-added' ? { data: described } : { preData: described }),
  };
}

/**
 * Adds a plan made from the template to the flag's environment, in place of the plan there was;
 * in an environment that is on, its first milestone starts at once.
 */
export async function addReleasePlan(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  templateId: string,
) {
  const actor = actorOf(identity);
  return ctx.db.transaction(async (tx) => {
    const environment = await liveFeatureEnvironment(tx, at, { lock: 'update' });
    const template = await getTemplate(tx, templateId);
    if (template.archivedAt || (template.project !== null && template.project !== at.project)) {
      throw new NotFoundError(
        `No release template in use in the project "${at.project}" has the id "${templateId}".`,
      );
    }
    const before = await findPlanOf(tx, at.featureName, at.environment, { lock: 'exclusive' });
    if (before) {
      await deletePlan(tx, before.id);
      recordEvent(tx, actor, planEvent(before, at.project, 'release-plan-removed'));
    }
    let plan = await insertPlan(tx, {
      id: ulid(),
      featureName: at.featureName,
      environment: at.environment,
      templateId,
      name: template.name,
      description: template.description,
      milestones: milestonesOf(template, at.featureName),
      activeMilestoneId: null,
      createdByUserId: identity.kind === 'user' ? identity.userId : null,
    });
    recordEvent(tx, actor, planEvent(plan, at.project, 'release-plan-added'));
    const first = plan.milestones[0];
    if (environment.enabled && first) plan = await startIn(ctx, tx, actor, at.project, plan, first.id);
    return describeGuardedPlan(plan, []);
  });
}

export async function planAt(tx: Transaction, at: FeatureEnvironmentPath, planId: string): Promise<Plan> {
  await liveFeatureEnvironment(tx, at, { lock: 'update' });
  const plan = await findPlanOf(tx, at.featureName, at.environment, { lock: 'update' });
  if (plan?.id !== planId) {
    throw new NotFoundError(
      `The flag "${at.featureName}" has no release plan with the id "${planId}" in the environment "${at.environment}".`,
    );
  }
  return plan;
}

export async function removeReleasePlan(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  planId: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const plan = await planAt(tx, at, planId);
    await deletePlan(tx, plan.id);
    recordEvent(tx, actorOf(identity), planEvent(plan, at.project, 'release-plan-removed'));
  });
}

/** Starts a milestone by hand (again, if it had been): the plan serves its strategies from now on. */
export async function startMilestone(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  planId: string,
  milestoneId: string,
) {
  return ctx.db.transaction(async (tx) => {
    const plan = await planAt(tx, at, planId);
    const after = await startIn(ctx, tx, actorOf(identity), at.project, plan, milestoneId);
    return describeMilestone(after, after.milestones.find((m) => m.id === milestoneId)!);
  });
}

/** The plan of the flag's environment, as it stands; undefined when there is none. */
export function currentPlan(db: Queryable, feature: string, environment: string): Promise<Plan | undefined> {
  return findPlanOf(db, feature, environment);
}

/** The plans of the flag's environment: one at most. */
export async function readReleasePlans(ctx: AppContext, at: FeatureEnvironmentPath) {
  await liveFeatureEnvironment(ctx.db, at);
  const plan = await findPlanOf(ctx.db, at.featureName, at.environment);
  return plan ? [describeGuardedPlan(plan, await planSafeguards(ctx.db, plan.id, at.project))] : [];
}
