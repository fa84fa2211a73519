import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../db/database.js';
import { recordEvent } from '../../events/service.js';
import { NoAccessError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import { assertPermission } from '../../http/permissions.js';
import { getProject, projectEnvironmentNames } from '../../projects/service.js';
import type { FeatureModel } from '../../read-model/model.js';
import { segmentNamesOutsideProject } from '../../segments/queries.js';
import { dependenciesOf, dependenciesOn } from '../dependencies/queries.js';
import { segmentIdsOfFeature } from '../usage/queries.js';
import { getLiveFeature } from './service.js';
import { featureEnvironmentNames, setFeatureProject } from './store.js';

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

/** A parent must be in its child's project: a feature that takes part in a dependency stays. */
async function assertNoDependencies(db: Queryable, featureName: string): Promise<void> {
  const parents = await dependenciesOf(db, [featureName]);
  const children = await dependenciesOn(db, [featureName]);
  if (parents.length === 0 && children.length === 0) return;
  throw new NoAccessError(
    `The feature "${featureName}" cannot change project: it has dependencies (${[
      ...parents.map((d) => `it depends on "${d.feature}"`),
      ...children.map((d) => `"${d.child}" depends on it`),
    ].join(', ')}). Remove them first.`,
  );
}

/** Refuses to move a feature whose constraints use context fields of its current project. */
function assertContextFieldsFitProject(model: FeatureModel, featureName: string, project: string): void {
  const rules = model.contextRules(project);
  const used = new Set(
    (model.feature(featureName)?.strategies ?? []).flatMap((s) => s.constraints.map((c) => c.contextName)),
  );
  const foreign = [...used].filter((name) => rules.get(name)?.otherProject !== undefined).sort();
  if (foreign.length > 0) {
    throw new NoAccessError(
      `The feature "${featureName}" has constraints on context fields of its current project (${foreign.join(', ')}), ` +
        `which the project "${project}" cannot use: remove those constraints first.`,
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
    await assertNoDependencies(tx, feature.name);
    assertContextFieldsFitProject(ctx.model, feature.name, newProjectId);
    await setFeatureProject(tx, feature.name, newProjectId);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-project-change',
      project: newProjectId,
      featureName: feature.name,
      data: { oldProject: project, newProject: newProjectId },
    });
  });
}
