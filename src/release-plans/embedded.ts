import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import type { EnvironmentRelease } from '../features/core/reads.js';
import type { ChangeSet, Follower } from '../sync/sync.js';
import { featureSafeguards } from './safeguards/views.js';
import { describeGuardedPlan } from './service.js';
import { featuresWithReleases, plansOfFeature } from './store.js';

/** The flag's environments that have a plan or a safeguard, by name: two statements whatever it has. */
async function releasesOfFeature(
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
    release.releasePlans.push(describeGuardedPlan(plan, safeguards.plans.get(plan.id) ?? []));
    const active = plan.milestones.find((m) => m.id === plan.activeMilestoneId);
    if (active) {
      release.milestoneName = active.name;
      release.milestoneOrder = active.sortOrder;
    }
    release.totalMilestones = plan.milestones.length;
  }
  return releases;
}

/**
 * The names of the flags that have a plan or a safeguard, following the configuration revision
 * (adding or removing either is a change of the flag's), so that a flag's read, served from memory,
 * asks the database only for the few flags that have one. Only whether they have one is kept here:
 * what they are is read each time, since a plan's progress and a safeguard's state move without a
 * new revision.
 */
class ReleasePresence implements Follower {
  private names = new Set<string>();

  has(feature: string): boolean {
    return this.names.has(feature);
  }

  async load(tx: Queryable, changes: ChangeSet) {
    if (changes.full) {
      const all = await featuresWithReleases(tx);
      return () => {
        this.names = new Set(all);
      };
    }
    // Changes whose writers described them whole are edits of flags' own records: no plan or
    // safeguard came or went with them.
    if (changes.patches || changes.features.size === 0) return undefined;
    const named = [...changes.features];
    const present = new Set(await featuresWithReleases(tx, named));
    return () => {
      for (const name of named) {
        if (present.has(name)) this.names.add(name);
        else this.names.delete(name);
      }
    };
  }
}

const NONE: ReadonlyMap<string, EnvironmentRelease> = new Map();

/** What a flag's read shows of release management, for the features' routes (which do not import this room). */
export function releaseReader(ctx: AppContext) {
  const presence = new ReleasePresence();
  ctx.sync.follow(presence);
  return async (feature: string, project: string): Promise<ReadonlyMap<string, EnvironmentRelease>> =>
    presence.has(feature) ? releasesOfFeature(ctx.db, feature, project) : NONE;
}
