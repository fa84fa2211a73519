import type { Queryable } from '../../db/database.js';
import { disableFeaturesEverywhere } from '../environments/writes.js';
import { enterStage, restartLifecycles } from '../lifecycle/writes.js';
import type { Feature, NewFeature } from './store.js';
import * as store from './store.js';

// The writes of features' rows, with what must change beside them in the rooms that own the other
// tables (their environments, their lifecycle stages). Every write of `features` is in ./store.ts.

export {
  deleteAllFeatures,
  deleteFeatures,
  type FeatureRow,
  setFeaturesSeenNow,
  upsertFeatureRows,
  type WrittenFeatureRow,
} from './store.js';

/** Inserts the feature, in no environment yet (see attachFeatureEnvironments), at its initial stage. */
export async function insertFeature(db: Queryable, f: NewFeature): Promise<Feature> {
  const feature = await store.insertFeature(db, f);
  await enterStage(db, [f.name], 'initial');
  return feature;
}

/** Archives those of the features that are live (they enter that stage); answers the ones archived now. */
export async function archiveFeatures(db: Queryable, names: string[]): Promise<Feature[]> {
  const archived = await store.archiveFeatures(db, names);
  await enterStage(
    db,
    archived.map((f) => f.name),
    'archived',
  );
  return archived;
}

/**
 * Brings archived features back, switched off in every environment (their strategies and
 * variants stay) and initial again; answers the ones revived now.
 */
export async function reviveFeatures(db: Queryable, names: string[]): Promise<Feature[]> {
  const revived = await store.reviveFeatures(db, names);
  const revivedNames = revived.map((f) => f.name);
  await disableFeaturesEverywhere(db, revivedNames);
  await restartLifecycles(db, revivedNames);
  return revived;
}
