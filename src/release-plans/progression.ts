import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { type EventInput, recordEvent } from '../events/service.js';
import { type FeatureEnvironmentPath, liveFeatureEnvironment } from '../features/environments/service.js';
import { type SwitchOnHook, whenSwitchedOn } from '../features/environments/switch-service.js';
import { NotFoundError, ValidationError } from '../http/errors.js';
import { actorOf, type Identity, SYSTEM_ACTOR } from '../http/identity.js';
import { dropJob } from '../jobs/queue.js';
import type { JobKind } from '../jobs/runner.js';
import { PROGRESSION_JOB, progressionKey, scheduleProgression, startIn } from './milestones.js';
import { planAt } from './service.js';
import { findPlan, findPlanOf, type Plan, type PlanMilestone, savePlanProgress } from './store.js';

export interface ProgressionInput {
  targetMilestone: string;
  transitionCondition: { intervalMinutes: number };
}

/** A plan's milestone named in a path (`…/progressions/:sourceMilestoneId`), with the plan. */
async function milestoneAt(tx: Transaction, at: FeatureEnvironmentPath, milestoneId: string) {
  await liveFeatureEnvironment(tx, at, { lock: 'update' });
  const plan = await findPlanOf(tx, at.featureName, at.environment, { lock: 'update' });
  const milestone = plan?.milestones.find((m) => m.id === milestoneId);
  if (!plan || !milestone) {
    throw new NotFoundError(
      `The release plan of the flag "${at.featureName}" in the environment "${at.environment}" has no milestone with the id "${milestoneId}".`,
    );
  }
  return { plan, milestone };
}

function progressionEvent(
  plan: Plan,
  project: string,
  type: EventInput['type'],
  m: PlanMilestone,
): EventInput {
  const progression = {
    sourceMilestone: m.id,
    targetMilestone: m.progressionTargetId,
    transitionCondition: m.transitionCondition,
  };
  return {
    type,
    project,
    featureName: plan.featureName,
    environment: plan.environment,
    ...(type === 'milestone-progression-deleted' ? { preData: progression } : { data: progression }),
  };
}

async function save(tx: Transaction, plan: Plan, milestones: PlanMilestone[]): Promise<Plan> {
  await savePlanProgress(tx, plan.id, milestones, plan.activeMilestoneId);
  return { ...plan, milestones };
}

/**
 * Makes the milestone start the target milestone `intervalMinutes` after it starts itself (or
 * started, when it is the plan's current one: then counted from its start).
 */
export async function changeProgression(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  sourceId: string,
  input: ProgressionInput,
) {
  return ctx.db.transaction(async (tx) => {
    const { plan, milestone } = await milestoneAt(tx, at, sourceId);
    const target = plan.milestones.find((m) => m.id === input.targetMilestone);
    if (!target || target.id === sourceId) {
      throw new ValidationError(
        `The target milestone must be another milestone of the same plan: "${input.targetMilestone}" is not.`,
        [{ path: 'targetMilestone', message: 'Not another milestone of this plan.' }],
      );
    }
    const changed = {
      ...milestone,
      transitionCondition: input.transitionCondition,
      progressionTargetId: target.id,
    };
    const after = await save(
      tx,
      plan,
      plan.milestones.map((m) => (m.id === sourceId ? changed : m)),
    );
    const type = milestone.transitionCondition
      ? 'milestone-progression-updated'
      : 'milestone-progression-created';
    recordEvent(tx, actorOf(identity), progressionEvent(plan, at.project, type, changed));
    await scheduleProgression(ctx, tx, after);
    return {
      sourceMilestone: sourceId,
      targetMilestone: target.id,
      transitionCondition: input.transitionCondition,
    };
  });
}

export async function deleteProgression(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  sourceId: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const { plan, milestone } = await milestoneAt(tx, at, sourceId);
    if (!milestone.transitionCondition) {
      throw new NotFoundError(`The milestone "${sourceId}" has no progression.`);
    }
    const cleared = { ...milestone, transitionCondition: null, progressionTargetId: null };
    await save(
      tx,
      plan,
      plan.milestones.map((m) => (m.id === sourceId ? cleared : m)),
    );
    await dropJob(tx, PROGRESSION_JOB, progressionKey(plan.id, sourceId));
    recordEvent(
      tx,
      actorOf(identity),
      progressionEvent(plan, at.project, 'milestone-progression-deleted', milestone),
    );
  });
}

/** Lets the plan's paused progressions run again; the current milestone's is due as it was. */
export async function resumeProgressions(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  planId: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const plan = await planAt(tx, at, planId);
    const after = await save(
      tx,
      plan,
      plan.milestones.map((m) => ({ ...m, pausedAt: null })),
    );
    recordEvent(tx, actorOf(identity), {
      type: 'release-plan-progressions-resumed',
      project: at.project,
      featureName: plan.featureName,
      environment: plan.environment,
      data: { id: plan.id, name: plan.name },
    });
    await scheduleProgression(ctx, tx, after);
  });
}

/** Whether the plan is started with its progressions running (not paused); undefined: there is no such plan. */
export async function progressing(db: Queryable, planId: string): Promise<boolean | undefined> {
  const plan = await findPlan(db, planId);
  if (!plan) return undefined;
  return plan.activeMilestoneId !== null && !plan.milestones.some((m) => m.pausedAt);
}

/**
 * A safeguard tripped: the plan's progressions stop where they are (its current milestone keeps
 * running) until someone resumes them. False when there is no such plan or it was paused already.
 */
export async function pauseProgressions(
  tx: Transaction,
  project: string,
  planId: string,
  reason: string,
): Promise<boolean> {
  const plan = await findPlan(tx, planId, { lock: 'update' });
  if (!plan || plan.milestones.some((m) => m.pausedAt)) return false;
  const now = new Date().toISOString();
  await save(
    tx,
    plan,
    plan.milestones.map((m) => ({ ...m, pausedAt: now })),
  );
  recordEvent(tx, SYSTEM_ACTOR, {
    type: 'release-plan-progressions-paused',
    project,
    featureName: plan.featureName,
    environment: plan.environment,
    data: { id: plan.id, name: plan.name, reason },
  });
  return true;
}

/** How long a progression due while its environment is off waits before it looks again. */
const WHILE_OFF_MS = 60_000;

/**
 * The job that starts a progression's target when its time comes: only if its source is still the
 * plan's current milestone and not paused. While the environment is off the plan waits: the job
 * fails with that reason and is tried again a minute later.
 */
function progressionJob(ctx: AppContext): JobKind {
  return {
    async run(job) {
      const [planId = '', sourceId] = job.key.split(':');
      await ctx.db.transaction(async (tx) => {
        const plan = await findPlan(tx, planId, { lock: 'update' });
        const source = plan?.milestones.find((m) => m.id === sourceId);
        if (!plan || plan.activeMilestoneId !== sourceId || !source?.progressionTargetId || source.pausedAt)
          return;
        const project = ctx.model.feature(plan.featureName)?.project;
        if (!project) return;
        const environment = await liveFeatureEnvironment(tx, {
          project,
          featureName: plan.featureName,
          environment: plan.environment,
        });
        if (!environment.enabled) {
          throw new Error(
            `The environment "${plan.environment}" is off: the release plan waits until it is on.`,
          );
        }
        const executed = plan.milestones.map((m) =>
          m.id === source.id ? { ...m, progressionExecutedAt: new Date().toISOString() } : m,
        );
        const target = source.progressionTargetId;
        await startIn(ctx, tx, SYSTEM_ACTOR, project, { ...plan, milestones: executed }, target);
      });
    },
    retryAfterMs: () => WHILE_OFF_MS,
  };
}

/**
 * A flag environment switched on with a plan that has not started: its first milestone starts, and
 * no default strategy is added beside it (a plan added while the environment was off waits for it).
 */
const startWaitingPlan: SwitchOnHook = async (tx, ctx, identity, at) => {
  const plan = await findPlanOf(tx, at.featureName, at.environment, { lock: 'update' });
  const first = plan?.milestones[0];
  if (!plan || !first) return false;
  if (!plan.activeMilestoneId) await startIn(ctx, tx, actorOf(identity), at.project, plan, first.id);
  return true;
};

/** Runs release plans' progressions on this process (with every other), and starts waiting plans. */
export function runProgressions(ctx: AppContext): void {
  ctx.jobs.register(PROGRESSION_JOB, progressionJob(ctx));
  whenSwitchedOn(startWaitingPlan);
}
