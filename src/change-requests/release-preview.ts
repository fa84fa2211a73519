import type { AppContext } from '../app-context.js';
import { NotFoundError } from '../http/errors.js';
import type { FeatureRecord } from '../read-model/queries.js';
import { currentPlan, milestonesOf, type PlanMilestone } from '../release-plans/service.js';
import { getTemplate, type Template } from '../release-templates/service.js';
import type { ChangeRow } from './store.js';

/** A flag environment's plan as the preview follows it: its milestones, and the one started. */
interface PlanState {
  id: string | null;
  milestones: PlanMilestone[];
  activeMilestoneId: string | null;
}

/** What a request's release changes need besides the flags: each flag's plan there, each template added. */
export interface ReleaseParts {
  plans: Map<string, PlanState | undefined>;
  templates: Map<string, Template>;
}

/** The changes whose preview depends on the plan the flag has now. */
const READ_PLAN = new Set(['startMilestone', 'updateEnabled']);

export async function releasePartsOf(
  ctx: AppContext,
  environment: string,
  changes: readonly ChangeRow[],
): Promise<ReleaseParts> {
  const parts: ReleaseParts = { plans: new Map(), templates: new Map() };
  for (const c of changes) {
    if (c.feature === null) continue;
    if (READ_PLAN.has(c.action) && !parts.plans.has(c.feature)) {
      parts.plans.set(c.feature, await currentPlan(ctx.db, c.feature, environment));
    }
    const templateId = c.action === 'addReleasePlan' ? String(c.payload.templateId) : undefined;
    if (templateId !== undefined && !parts.templates.has(templateId)) {
      try {
        parts.templates.set(templateId, await getTemplate(ctx.db, templateId));
      } catch (error) {
        // Gone since the change was asked for: applying it would fail, and the preview leaves it out.
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
  }
  return parts;
}

/** The flag serves the milestone's strategies in the environment, in place of the release's it served. */
function serve(f: FeatureRecord, environment: string, milestone: PlanMilestone | undefined): void {
  const strategies = (milestone?.strategies ?? []).map(({ milestoneId: _, ...s }) => ({
    ...s,
    featureName: f.name,
    environment,
    createdAt: new Date(),
  }));
  f.releaseStrategies = [...f.releaseStrategies.filter((s) => s.environment !== environment), ...strategies];
}

/**
 * Carries out a change of the flag environment's release plan on a copy of the flag, as applying
 * it would: what SDKs are served of the plan is its started milestone's strategies.
 */
export function changeRelease(
  f: FeatureRecord,
  c: ChangeRow,
  environment: string,
  parts: ReleaseParts,
): void {
  const p = c.payload as Record<string, string>;
  const plan = parts.plans.get(f.name);
  switch (c.action) {
    case 'addReleasePlan': {
      const template = parts.templates.get(p.templateId!);
      if (!template) return;
      const milestones = milestonesOf(template, f.name);
      // In an environment that is on, its first milestone starts at once.
      const on = f.environments.find((e) => e.name === environment)?.enabled === true;
      const first = on ? milestones[0] : undefined;
      parts.plans.set(f.name, { id: null, milestones, activeMilestoneId: first?.id ?? null });
      serve(f, environment, first);
      return;
    }
    case 'deleteReleasePlan':
      parts.plans.set(f.name, undefined);
      serve(f, environment, undefined);
      return;
    case 'startMilestone': {
      const milestone =
        plan?.id === p.planId ? plan.milestones.find((m) => m.id === p.milestoneId) : undefined;
      if (!plan || !milestone) return;
      plan.activeMilestoneId = milestone.id;
      serve(f, environment, milestone);
      return;
    }
  }
}

/**
 * The environment switched on with no active strategy: a plan that has not started starts its first
 * milestone. True when the environment has a plan to serve, so no strategy is added beside it.
 */
export function switchedOn(f: FeatureRecord, environment: string, parts: ReleaseParts): boolean {
  const plan = parts.plans.get(f.name);
  const first = plan?.milestones[0];
  if (!plan || !first) return false;
  if (!plan.activeMilestoneId) {
    plan.activeMilestoneId = first.id;
    serve(f, environment, first);
  }
  return true;
}
