import { NotFoundError } from '../../http/errors.js';
import type { FeatureModel } from '../../read-model/model.js';
import type { EnvironmentState, FeatureRecord } from '../../read-model/queries.js';
import { type FeatureEnvironmentPath, noSuchEnvironment } from '../environments/service.js';
import { describeLifecycle } from '../lifecycle/stages.js';
import { describeFeature, describeStrategy, getModelFeature } from './service.js';

// The admin reads of features users repeat, from the read model: no SQL.

/** A feature's state in one environment, with its strategies and variants. */
/**
 * What a flag environment shows of release management, as Unleash's feature environment does: its
 * plan with the plan's safeguard, the active milestone, and the environment's own safeguard.
 */
export interface EnvironmentRelease {
  releasePlans: unknown[];
  safeguards: unknown[];
  milestoneName?: string;
  milestoneOrder?: number;
  totalMilestones?: number;
}

export function describeEnvironment(model: FeatureModel, f: FeatureRecord, e: EnvironmentState) {
  const environment = model.environment(e.name);
  const strategies = f.strategies.filter((s) => s.environment === e.name);
  return {
    name: e.name,
    environment: e.name,
    featureName: f.name,
    type: environment?.type ?? '',
    enabled: e.enabled,
    sortOrder: environment?.sortOrder ?? 0,
    variantCount: e.variants.length,
    variants: e.variants,
    strategies: strategies.map(describeStrategy),
    hasStrategies: strategies.length > 0,
    hasEnabledStrategies: strategies.some((s) => !s.disabled),
    lastSeenAt: e.lastSeenAt,
  };
}

/**
 * The path's live feature in one of its environments: on or off, strategies, variants. `name` is
 * the feature's, as in Unleash's answer (the environment is `environment`).
 */
export function readFeatureEnvironment(model: FeatureModel, at: FeatureEnvironmentPath) {
  const feature = getModelFeature(model, at.project, at.featureName);
  const state = feature.environments.find((e) => e.name === at.environment);
  if (!state) throw noSuchEnvironment(at);
  return { ...describeEnvironment(model, feature, state), name: feature.name };
}

/**
 * A feature with each of its environments, their strategies and variants, its lifecycle stage and
 * links (from memory); `favorite` says whether it is one of the caller's.
 */
export function readFeature(model: FeatureModel, project: string, name: string, favorite = false) {
  const feature = getModelFeature(model, project, name);
  return {
    ...describeFeature(feature),
    favorite,
    environments: feature.environments.map((e) => describeEnvironment(model, feature, e)),
    variants: [],
    children: model.children(feature.name),
    dependencies: feature.dependencies,
    ...describeLifecycle(feature.stages),
    links: feature.links.map((l) => ({ id: l.id, url: l.url, title: l.title, feature: feature.name })),
  };
}

/** A feature's state in one environment, as lists show it: without its strategies and variants. */
export function describeListEnvironment(model: FeatureModel, f: FeatureRecord, e: EnvironmentState) {
  const environment = model.environment(e.name);
  const strategies = f.strategies.filter((s) => s.environment === e.name);
  return {
    name: e.name,
    environment: e.name,
    type: environment?.type ?? '',
    enabled: e.enabled,
    sortOrder: environment?.sortOrder ?? 0,
    variantCount: e.variants.length,
    lastSeenAt: e.lastSeenAt,
    hasStrategies: strategies.length > 0,
    hasEnabledStrategies: strategies.some((s) => !s.disabled),
  };
}

/** One feature of the project list: its metadata and environments (without their strategies). */
export function describeListEntry(model: FeatureModel, f: FeatureRecord, favorite: boolean) {
  return {
    name: f.name,
    description: f.description,
    type: f.type,
    project: f.project,
    stale: f.stale,
    impressionData: f.impressionData,
    archived: false,
    archivedAt: null,
    createdAt: f.createdAt,
    lastSeenAt: f.lastSeenAt,
    favorite,
    environments: f.environments.map((e) => describeListEnvironment(model, f, e)),
    tags: f.tags,
  };
}

/** One feature of the project list, as JSON text. */
function listEntryJson(model: FeatureModel, f: FeatureRecord, favorite: boolean): string {
  return JSON.stringify(describeListEntry(model, f, favorite));
}

const listTexts = new WeakMap<FeatureModel, { version: number; byProject: Map<string, string> }>();
/** Each feature's entry, made once per change of that feature: as a favorite, and not. */
const entryTexts = [
  new WeakMap<FeatureRecord, { stamp: number; text: string }>(),
  new WeakMap<FeatureRecord, { stamp: number; text: string }>(),
];

function entryText(model: FeatureModel, f: FeatureRecord, favorite: boolean): string {
  const cache = entryTexts[favorite ? 1 : 0]!;
  const stamp = model.seenStamp(f);
  let entry = cache.get(f);
  if (!entry || entry.stamp !== stamp) {
    entry = { stamp, text: listEntryJson(model, f, favorite) };
    cache.set(f, entry);
  }
  return entry.text;
}

/**
 * The live features of a project, each with its environments (without their strategies), as
 * ready-to-send JSON text from memory: made once per change of the model, and each feature's part
 * once per change of that feature, so lists of thousands of features cost a string join. The
 * caller's `favorites` are marked; a list with none of them is the one shared by every caller.
 */
export function readProjectFeatures(
  model: FeatureModel,
  project: string,
  favorites: ReadonlySet<string> = new Set(),
): string {
  if (!model.project(project)) throw new NotFoundError(`There is no project with the id "${project}".`);
  const features = model.liveFeaturesOf(project);
  if (features.some((f) => favorites.has(f.name))) {
    const entries = features.map((f) => entryText(model, f, favorites.has(f.name)));
    return `{"version":2,"features":[${entries.join(',')}]}`;
  }
  let texts = listTexts.get(model);
  if (!texts || texts.version !== model.version) {
    texts = { version: model.version, byProject: new Map() };
    listTexts.set(model, texts);
  }
  let text = texts.byProject.get(project);
  if (text === undefined) {
    const entries = features.map((f) => entryText(model, f, false));
    text = `{"version":2,"features":[${entries.join(',')}]}`;
    texts.byProject.set(project, text);
  }
  return text;
}
