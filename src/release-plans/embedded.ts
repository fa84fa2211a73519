import type { Queryable } from '../db/database.js';
import type { EnvironmentRelease } from '../features/core/reads.js';
import { featureSafeguards } from './safeguards/views.js';
import { describePlan } from './service.js';
import { plansOfFeature } from './store.js';

/** The flag's environments that have a plan or a safeguard, by name: two statements whatever it has. */
export async function releasesOfFeature(
  db: Queryable,
  feature: string,
  project: string,
): Promise<Map<string, EnvironmentRelease>> {
  const plans = await plansOfFeature(db, feature);
  const safeguards = await featureSafeguards(db, feature, project);
  const releases = new Map<string, EnvironmentRelease>();
  for (const [environment, own] of safeguards.environments) {
    releases.set(environment, { releasePlans: [], safeguards: own });
  }
  for (const plan of plans) {
    const release = releases.get(plan.environment) ?? { releasePlans: [], safeguards: [] };
    releases.set(plan.environment, release);
    release.releasePlans.push({ ...describePlan(plan), safeguards: safeguards.plans.get(plan.id) ?? [] });
    const active = plan.milestones.find((m) => m.id === plan.activeMilestoneId);
    if (active) {
      release.milestoneName = active.name;
      release.milestoneOrder = active.sortOrder;
    }
    release.totalMilestones = plan.milestones.length;
  }
  return releases;
}
