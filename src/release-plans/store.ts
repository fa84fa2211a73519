import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { StrategySettings } from '../features/strategies/settings.js';

export interface PlanStrategy extends StrategySettings {
  id: string;
  milestoneId: string;
  sortOrder: number;
}

export interface PlanMilestone {
  id: string;
  name: string;
  sortOrder: number;
  strategies: PlanStrategy[];
  /** ISO times. */
  startedAt: string | null;
  /** Starts `progressionTargetId` this long after this one started. */
  transitionCondition: { intervalMinutes: number } | null;
  progressionTargetId?: string | null;
  progressionExecutedAt: string | null;
  pausedAt: string | null;
}

export interface Plan {
  id: string;
  featureName: string;
  environment: string;
  templateId: string;
  name: string;
  description: string | null;
  milestones: PlanMilestone[];
  activeMilestoneId: string | null;
  createdByUserId: number | null;
  createdAt: Date;
}

const COLUMNS = `id, feature_name AS "featureName", environment, template_id AS "templateId", name, description,
  milestones, active_milestone_id AS "activeMilestoneId", created_by_user_id AS "createdByUserId",
  created_at AS "createdAt"`;

/** The plan of the flag's environment. */
export async function findPlanOf(
  db: Queryable,
  feature: string,
  environment: string,
  options: ReadOptions = {},
): Promise<Plan | undefined> {
  const { rows } = await db.query<Plan>(
    withRowLock(
      `SELECT ${COLUMNS} FROM release_plans WHERE feature_name = $1 AND environment = $2`,
      options.lock,
    ),
    [feature, environment],
  );
  return rows[0];
}

/**
 * Which of the features (every feature when none are named) have a release plan or a safeguard of
 * their own in some environment: a plan's safeguard goes with its plan.
 */
export async function featuresWithReleases(db: Queryable, names?: readonly string[]): Promise<string[]> {
  const where = names ? 'WHERE feature_name = ANY($1::text[])' : '';
  const { rows } = await db.query<{ name: string }>(
    `SELECT feature_name AS name FROM release_plans ${where}
     UNION SELECT feature_name FROM safeguards ${where}`,
    names ? [names] : [],
  );
  return rows.map((r) => r.name);
}

/** The plans of the feature, one per environment at most. */
export async function plansOfFeature(db: Queryable, feature: string): Promise<Plan[]> {
  const { rows } = await db.query<Plan>(`SELECT ${COLUMNS} FROM release_plans WHERE feature_name = $1`, [
    feature,
  ]);
  return rows;
}

export async function findPlan(
  db: Queryable,
  id: string,
  options: ReadOptions = {},
): Promise<Plan | undefined> {
  const { rows } = await db.query<Plan>(
    withRowLock(`SELECT ${COLUMNS} FROM release_plans WHERE id = $1`, options.lock),
    [id],
  );
  return rows[0];
}

export async function insertPlan(db: Queryable, plan: Omit<Plan, 'createdAt'>): Promise<Plan> {
  const { rows } = await db.query<Plan>(
    `INSERT INTO release_plans (id, feature_name, environment, template_id, name, description, milestones,
                                active_milestone_id, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) RETURNING ${COLUMNS}`,
    [
      plan.id,
      plan.featureName,
      plan.environment,
      plan.templateId,
      plan.name,
      plan.description,
      JSON.stringify(plan.milestones),
      plan.activeMilestoneId,
      plan.createdByUserId,
    ],
  );
  return rows[0]!;
}

/** Its milestones and which one is started, as they are now. */
export async function savePlanProgress(
  db: Queryable,
  id: string,
  milestones: readonly PlanMilestone[],
  activeMilestoneId: string | null,
): Promise<void> {
  await db.query('UPDATE release_plans SET milestones = $2::jsonb, active_milestone_id = $3 WHERE id = $1', [
    id,
    JSON.stringify(milestones),
    activeMilestoneId,
  ]);
}

export async function deletePlan(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM release_plans WHERE id = $1', [id]);
}
