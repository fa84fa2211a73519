import { asStoredJson } from '../db/jsonb.js';
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

/** Of those features, the ones their writers gave whole (see `newFeatureRecord`), and the rest. */
export function givenRecords(names: readonly string[], records: ReadonlyMap<string, unknown> = new Map()) {
  // Every record handed to the sync is one of `newFeatureRecord`'s (the type is kept opaque there).
  const given = names.flatMap((name) => (records.has(name) ? [records.get(name) as FeatureRecord] : []));
  return { given, unread: names.filter((name) => !records.has(name)) };
}

/** What one write made of a feature that did not exist: all its record is read from. */
export interface NewFeatureWrite {
  feature: Pick<FeatureRecord, 'name' | 'project' | 'description' | 'type' | 'stale' | 'impressionData'>;
  /** As the database stored them. */
  createdAt: Date;
  archivedAt: Date | null;
  /** The transaction's time: when its strategies and tags were made. */
  writtenAt: Date;
  createdByUserId: number | null;
  environments: readonly { environment: string; enabled: boolean; variants: unknown[] }[];
  strategies: readonly (Omit<FeatureRecord['strategies'][number], 'createdAt' | 'featureName'> & {
    featureName: string;
  })[];
  tags: readonly { type: string; value: string }[];
}

/** Text in the embedded database's order (collation C: by bytes). */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * The record a reload would read of a feature one write made whole (no parent, link, release plan
 * or later stage yet), members in the order the reload gives them. Ties the reload breaks by text
 * are broken by bytes, as the embedded database orders: only it is handed such records.
 */
export function newFeatureRecord(w: NewFeatureWrite): FeatureRecord {
  const { name, project, description, type, stale, impressionData } = w.feature;
  const strategies = [...w.strategies].sort(
    (a, b) => byBytes(a.environment, b.environment) || a.sortOrder - b.sortOrder || byBytes(a.id, b.id),
  );
  const tags = [...w.tags].sort((a, b) => byBytes(a.type, b.type) || byBytes(a.value, b.value));
  const stage = (stage: 'initial' | 'archived', at: Date) => ({
    stage,
    status: null,
    statusValue: null,
    enteredStageAt: at,
  });
  return {
    name,
    project,
    description,
    type,
    stale,
    impressionData,
    archivedAt: w.archivedAt,
    createdAt: w.createdAt,
    lastSeenAt: null,
    environments: w.environments.map((e) => ({
      name: e.environment,
      enabled: e.enabled,
      variants: asStoredJson(e.variants),
      lastSeenAt: null,
    })),
    strategies: strategies.map((s) => ({
      id: s.id,
      environment: s.environment,
      ...storedConfig(s),
      sortOrder: s.sortOrder,
      createdAt: w.writtenAt,
      segments: [...new Set(s.segments)].sort((a, b) => a - b),
      featureName: s.featureName,
    })),
    releaseStrategies: [],
    tags: tags.map((t) => ({ type: t.type, value: t.value })),
    dependencies: [],
    links: [],
    stages: [stage('initial', w.createdAt), ...(w.archivedAt ? [stage('archived', w.archivedAt)] : [])],
    createdByUserId: w.createdByUserId,
  };
}
