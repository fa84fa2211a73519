import type { AppContext } from '../app-context.js';
import type { Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { scheduleJob } from '../jobs/queue.js';
import { type Plan, savePlanProgress } from './store.js';

/** The kind of job that starts a milestone's progression target (its key: `planId:milestoneId`). */
export const PROGRESSION_JOB = 'milestone-progression';

export const progressionKey = (planId: string, milestoneId: string) => `${planId}:${milestoneId}`;

/** The started milestone's progression, if it has one and is not paused, is due after its interval. */
export async function scheduleProgression(ctx: AppContext, tx: Transaction, plan: Plan): Promise<void> {
  const m = plan.milestones.find((x) => x.id === plan.activeMilestoneId);
  if (!m?.startedAt || !m.transitionCondition || !m.progressionTargetId || m.pausedAt) return;
  const at = new Date(Date.parse(m.startedAt) + m.transitionCondition.intervalMinutes * 60_000);
  await scheduleJob(tx, PROGRESSION_JOB, progressionKey(plan.id, m.id), at);
  tx.afterCommit(() => ctx.jobs.expect(at));
}

/**
 * Starts the milestone (again, if it had been): its strategies become the ones the plan serves,
 * and its progression, if it has one, is due after its interval.
 */
export async function startIn(
  ctx: AppContext,
  tx: Transaction,
  actor: Actor,
  project: string,
  plan: Plan,
  milestoneId: string,
): Promise<Plan> {
  const milestone = plan.milestones.find((m) => m.id === milestoneId);
  if (!milestone) {
    throw new NotFoundError(`The release plan "${plan.id}" has no milestone with the id "${milestoneId}".`);
  }
  const now = new Date().toISOString();
  const milestones = plan.milestones.map((m) =>
    m.id === milestoneId ? { ...m, startedAt: now, progressionExecutedAt: null, pausedAt: null } : m,
  );
  await savePlanProgress(tx, plan.id, milestones, milestoneId);
  recordEvent(tx, actor, {
    type: 'release-plan-milestone-started',
    project,
    featureName: plan.featureName,
    environment: plan.environment,
    data: { id: plan.id, name: plan.name, milestoneId, milestoneName: milestone.name },
  });
  const after = { ...plan, milestones, activeMilestoneId: milestoneId };
  await scheduleProgression(ctx, tx, after);
  return after;
}
