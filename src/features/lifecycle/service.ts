import type { AppContext } from '../../app-context.js';
import { recordEvent } from '../../events/service.js';
import { actorOf, type Identity } from '../../http/identity.js';
import type { ProjectVisibility } from '../../http/visibility.js';
import type { FeatureModel } from '../../read-model/model.js';
import { getLiveFeature, getModelFeature } from '../core/service.js';
import { type CompletedStatus, countKey, currentStage, describeStage, inStageOrder } from './stages.js';
import { deleteCompleted, findCompleted, setCompleted } from './store.js';

/** Every stage the feature has entered, oldest first; archived features too (from memory). */
export function readLifecycle(model: FeatureModel, project: string, name: string) {
  const feature = getModelFeature(model, project, name, { includeArchived: true });
  return inStageOrder(feature.stages).map(describeStage);
}

/** How many features of the projects the caller sees stand at each stage, archived ones included (from memory). */
export function readStageCounts(model: FeatureModel, visible: ProjectVisibility) {
  const counts = { initial: 0, preLive: 0, live: 0, completed: 0, archived: 0 };
  for (const feature of model.allFeatures()) {
    if (!visible.sees(feature.project)) continue;
    const stage = currentStage(feature.stages);
    if (stage) counts[countKey(stage.stage)]++;
  }
  return counts;
}

export interface Completion {
  status: CompletedStatus;
  statusValue?: string;
}

/**
 * Marks a live feature completed: its code was kept or discarded. Completing it again with another
 * status changes the status; with the same one it changes nothing and records nothing.
 */
export async function completeFeature(
  ctx: AppContext,
  identity: Identity,
  project: string,
  name: string,
  completion: Completion,
): Promise<void> {
  const statusValue = completion.statusValue ?? null;
  await ctx.db.transaction(async (tx) => {
    await getLiveFeature(tx, project, name, { lock: 'update' });
    const before = await findCompleted(tx, name, { lock: 'update' });
    if (before && before.status === completion.status && before.statusValue === statusValue) return;
    await setCompleted(tx, name, completion.status, statusValue);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-completed',
      project,
      featureName: name,
      data: { status: completion.status, statusValue, kept: completion.status === 'kept' },
      preData: before && { status: before.status, statusValue: before.statusValue },
    });
  });
}

/** Takes a live feature out of the completed stage; one that is not completed is left as it is. */
export async function uncompleteFeature(
  ctx: AppContext,
  identity: Identity,
  project: string,
  name: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await getLiveFeature(tx, project, name, { lock: 'update' });
    const before = await findCompleted(tx, name, { lock: 'update' });
    if (!before) return;
    await deleteCompleted(tx, name);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-uncompleted',
      project,
      featureName: name,
      preData: { status: before.status, statusValue: before.statusValue },
    });
  });
}
