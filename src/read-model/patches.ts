import { type StrategyConfig, storedConfig } from '../features/strategies/queries.js';
import type { FeaturePatch } from '../sync/changes.js';
import type { FeatureRecord } from './store.js';

// How a write that knows what it changed turns the model's copy of a feature into what a reload
// would read (see `markPatched`): the same members, JSON as jsonb gives it back.

type Patch = (record: FeatureRecord) => FeatureRecord;

/** The feature with new metadata. */
export function metadataPatch(
  f: Pick<FeatureRecord, 'description' | 'type' | 'stale' | 'impressionData'>,
): Patch {
  const { description, type, stale, impressionData } = f;
  return (record) => ({ ...record, description, type, stale, impressionData });
}

/** The feature with one strategy's new configuration (its place and segments unchanged). */
export function strategyPatch(id: string, config: StrategyConfig): Patch {
  const stored = storedConfig(config);
  return (record) => ({
    ...record,
    strategies: record.strategies.map((s) => (s.id === id ? { ...s, ...stored } : s)),
  });
}

/** The features as their writers changed them, from the copies held (a missing one stays so). */
export function applyPatches(
  held: ReadonlyMap<string, FeatureRecord>,
  patches: ReadonlyMap<string, readonly FeaturePatch[]>,
): FeatureRecord[] {
  const features: FeatureRecord[] = [];
  for (const [name, list] of patches) {
    let feature = held.get(name);
    // Every patch registered is one of this file's (`FeaturePatch` keeps the record type opaque).
    for (const patch of list as readonly Patch[]) if (feature) feature = patch(feature);
    if (feature) features.push(feature);
  }
  return features;
}
