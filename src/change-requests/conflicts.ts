import type { AppContext } from '../app-context.js';
import { isFeatureChange, type StoredChange, snapshotOf, type Target } from './kinds/kinds.js';
import { canonical, type Snapshot } from './kinds/snapshots.js';

const TARGET_NAMES: Partial<Record<StoredChange['action'], string>> = {
  updateStrategy: 'strategy',
  deleteStrategy: 'strategy',
  patchVariant: "environment's variants",
  updateSegment: 'segment',
  deleteSegment: 'segment',
};

/**
 * Why the change can no longer be applied as it was reviewed, or undefined: its flag archived,
 * deleted or moved to another project, or what it changes changed or removed since it was added.
 */
export function conflictOf(
  ctx: AppContext,
  target: Target,
  change: StoredChange,
  snapshot: Snapshot,
): string | undefined {
  if (isFeatureChange(change.action)) {
    const feature = change.feature ? ctx.model.feature(change.feature) : undefined;
    if (!feature) return `The flag "${change.feature}" no longer exists.`;
    if (feature.archivedAt) return `The flag "${feature.name}" has been archived.`;
    if (feature.project !== target.project) {
      return `The flag "${feature.name}" has moved to another project.`;
    }
  }
  if (snapshot === null) return undefined;
  const now = snapshotOf(ctx, target, change);
  const what = TARGET_NAMES[change.action] ?? 'target';
  if (now === null) return `The ${what} this change is about has been deleted since it was added.`;
  if (canonical(now) !== canonical(snapshot)) {
    return `The ${what} this change is about has changed since it was added.`;
  }
  return undefined;
}
