import type { Queryable } from '../../db/database.js';
import { setFeaturesSeenNow } from '../core/writes.js';
import { enterStagesSeen } from '../lifecycle/writes.js';
import { setEnvironmentsSeenNow } from './store.js';

export { loadLastSeen, type SeenRow } from './store.js';

/**
 * SDKs reported these features in these environments: their last-seen times become now, and they
 * enter the lifecycle stages that reaching SDKs means (pre-live; live from a production
 * environment where they are on). Nothing happens for names that are not there. Each statement
 * locks its rows in key order, so two processes flushing metrics for the same features at once
 * wait for each other instead of deadlocking.
 */
export async function markFeaturesSeen(
  db: Queryable,
  seen: readonly { featureName: string; environment: string }[],
): Promise<void> {
  await setEnvironmentsSeenNow(db, seen);
  await setFeaturesSeenNow(db, [...new Set(seen.map((s) => s.featureName))]);
  await enterStagesSeen(db, seen);
}
