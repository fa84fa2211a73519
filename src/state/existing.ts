import type { Transaction } from '../db/database.js';
import { allEnvironments } from '../environments/list.js';
import type { Environment } from '../environments/types.js';
import { featureStates, type StrategyPlace, strategyPlaces } from '../features/import/service.js';
import { readSegmentStrategies } from '../features/usage/service.js';
import { EVERY_PROJECT } from '../http/visibility.js';
import { allProjects } from '../projects/linked-environments.js';
import type { Project } from '../projects/types.js';
import type { FeatureRecord } from '../read-model/queries.js';
import { allSegments } from '../segments/list.js';
import type { Segment } from '../segments/types.js';
import { allStrategyDefinitions } from '../strategies/service.js';
import type { StrategyDefinition } from '../strategies/types.js';
import { allTagTypes } from '../tag-types/service.js';
import type { TagType } from '../tag-types/types.js';
import { allTags } from '../tags/service.js';
import type { StateItems } from './document.js';

/** What the database holds of what a document names, read in the import's transaction. */
export interface Existing {
  projects: Map<string, Project & { environments: string[] }>;
  environments: Map<string, Environment>;
  strategyTypes: Map<string, StrategyDefinition>;
  segments: Map<number, Segment>;
  tagTypes: Map<string, TagType>;
  /** `type:value` of every tag. */
  tags: Set<string>;
  /** The features the document names, with everything hanging off them. */
  features: Map<string, FeatureRecord>;
  /** Where the strategies the document names by id live, wherever that is. */
  strategies: Map<string, StrategyPlace>;
  /** For the segments the document limits to another project: the projects of the strategies using them. */
  segmentUsers: Map<number, string[]>;
}

export const tagKey = (type: string, value: string) => `${type}:${value}`;

/** The names of every feature the document refers to, in any array. */
function featureNames(items: StateItems): string[] {
  return [
    ...new Set([
      ...items.features.map((f) => f.name),
      ...items.featureEnvironments.map((e) => e.featureName),
      ...items.featureStrategies.map((s) => s.featureName),
      ...items.featureTags.map((t) => t.featureName),
    ]),
  ];
}

export async function readExisting(tx: Transaction, items: StateItems): Promise<Existing> {
  const features = await featureStates(tx, featureNames(items), { lock: 'update' });
  const segments = new Map((await allSegments(tx)).map((s) => [s.id, s]));
  const segmentUsers = new Map<number, string[]>();
  for (const s of items.segments) {
    const before = segments.get(s.id);
    if (!before || (s.project ?? null) === null || s.project === before.project) continue;
    const { strategies } = await readSegmentStrategies(tx, s.id, EVERY_PROJECT);
    segmentUsers.set(s.id, [...new Set(strategies.map((u) => u.projectId))].sort());
  }
  const ids = [
    ...new Set([
      ...items.featureStrategies.map((s) => s.id),
      ...items.featureStrategySegments.map((p) => p.featureStrategyId),
    ]),
  ];
  return {
    projects: new Map((await allProjects(tx)).map((p) => [p.id, p])),
    environments: new Map((await allEnvironments(tx)).map((e) => [e.name, e])),
    strategyTypes: new Map((await allStrategyDefinitions(tx)).map((d) => [d.name, d])),
    segments,
    tagTypes: new Map((await allTagTypes(tx)).map((t) => [t.name, t])),
    tags: new Set((await allTags(tx)).map((t) => tagKey(t.type, t.value))),
    features: new Map(features.map((f) => [f.name, f])),
    strategies: new Map((await strategyPlaces(tx, ids)).map((p) => [p.id, p])),
    segmentUsers,
  };
}
