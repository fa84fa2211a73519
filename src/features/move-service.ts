import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { NoAccessError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { assertPermission } from '../http/permissions.js';
import { getProject, projectEnvironmentNames } from '../projects/service.js';
import { segmentNamesOutsideProject } from '../segments/store.js';
import { getLiveFeature } from './service.js';
import { featureEnvironmentNames, setFeatureProject } from './store.js';
import { segmentIdsOfFeature } from './usage-store.js';

/** Refuses to move a feature whose strategies use segments that belong to another project than the target. */
async function assertSegmentsFitProject(db: Queryable, featureName: string, project: string): Promise<void> {
  const foreign = await segmentNamesOutsideProject(db, await segmentIdsOfFeature(db, featureName), project);
  if (foreign.length > 0) {
    throw new NoAccessError(
      `The feature "${featureName}" has strategies using segments of its current project (${foreign.join(', ')}), ` +
        `which strategies in the project "${project}" cannot use: remove them from the strategies first.`,
    );
  }
}

/**
 * E7: moves a live feature to another project. The route has checked MOVE_FEATURE_TOGGLE in the
 * source; the target needs it too. Strategies, environment settings, variants and tags hang off
 * the feature's name, so they move with it.
 */
export async function moveFeature(
  ctx: AppContext,
  identity: Identity,
  project: string,
  name: string,
  newProjectId: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const feature = await getLiveFeature(tx, project, name, { lock: 'update' });
    // Shared: the target keeps the environments compared below until the move commits.
    await getProject(tx, newProjectId, { lock: 'share' });
    assertPermission(identity, 'MOVE_FEATURE_TOGGLE', { project: newProjectId });
    if (newProjectId === project) return;
    const have = (await featureEnvironmentNames(tx, name)).sort();
    const wanted = (await projectEnvironmentNames(tx, newProjectId)).sort();
    if (have.length !== wanted.length || have.some((e, i) => e !== wanted[i])) {
      throw new NoAccessError(
        `The project "${newProjectId}" is not a compatible target: it has the environments ` +
          `[${wanted.join(', ')}] but the feature has [${have.join(', ')}]. ` +
          'Link the same environments to both projects first.',
      );
    }
    await assertSegmentsFitProject(tx, feature.name, newProjectId);
    await setFeatureProject(tx, feature.name, newProjectId);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-project-change',
      project: newProjectId,
      featureName: feature.name,
      data: { oldProject: project, newProject: newProjectId },
    });
  });
}
