import type { AppContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NoAccessError, NotFoundError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { getProject } from '../projects/service.js';
import { type FeatureStrategy, strategiesOfFeatures } from '../strategies/store.js';
import {
  attachProjectFeatures,
  countLiveFeatures,
  detachProjectFeatures,
  environmentsOfFeatures,
  type Feature,
  type FeatureEnvironment,
  findFeature,
  findFeatureProject,
  findFeatures,
  insertFeature,
  liveFeatureListJson,
} from './store.js';

/**
 * The feature of that name in that project, or 404 — also when it belongs to another project (the
 * message says which, since that is the usual mistake) and, unless asked for, when it is archived.
 */
export async function getFeature(
  db: Queryable,
  project: string,
  name: string,
  options: { includeArchived?: boolean } = {},
): Promise<Feature> {
  const feature = await findFeature(db, name);
  if (!feature || (feature.archivedAt && !options.includeArchived)) {
    throw new NotFoundError(`There is no feature named "${name}" in the project "${project}".`);
  }
  if (feature.project !== project) {
    throw new NotFoundError(
      `There is no feature named "${name}" in the project "${project}"; it is in the project "${feature.project}".`,
    );
  }
  return feature;
}

/**
 * The named features that exist (archived or not), after checking that every one of them belongs
 * to the project: a list naming another project's feature is refused whole (403), as Unleash does.
 */
export async function namedFeaturesOfProject(
  db: Queryable,
  project: string,
  names: string[],
): Promise<Feature[]> {
  const features = await findFeatures(db, [...new Set(names)]);
  const elsewhere = features.filter((f) => f.project !== project);
  if (elsewhere.length > 0) {
    throw new NoAccessError(
      `These features are not in the project "${project}": ${elsewhere
        .map((f) => `"${f.name}" (in "${f.project}")`)
        .join(', ')}. Send each list to the project its features belong to.`,
    );
  }
  return features;
}

/** The feature of that name in any project, archived or not, or 404. */
export async function getAnyFeature(db: Queryable, name: string): Promise<Feature> {
  const feature = await findFeature(db, name);
  if (!feature) throw new NotFoundError(`There is no feature named "${name}", archived or not.`);
  return feature;
}

/** For routes that name a feature but not its project: the project to check permissions in. */
export function projectOfFeature(db: Queryable, name: string): Promise<string | undefined> {
  return findFeatureProject(db, name);
}

export function liveFeatureCount(db: Queryable, project: string): Promise<number> {
  return countLiveFeatures(db, project);
}

/** A project gained an environment: its features (archived too) get it, disabled. */
export function attachEnvironment(db: Queryable, project: string, environment: string): Promise<void> {
  return attachProjectFeatures(db, project, environment);
}

/** A project lost an environment: its features lose it, with their strategies there. */
export function detachEnvironment(db: Queryable, project: string, environment: string): Promise<void> {
  return detachProjectFeatures(db, project, environment);
}

/** The live (not archived) feature of that name in that project, or 404. */
export function getLiveFeature(db: Queryable, project: string, name: string): Promise<Feature> {
  return getFeature(db, project, name);
}

/** The metadata of a feature, as events and PATCH see it. */
export function describeFeature(f: Feature) {
  return {
    name: f.name,
    description: f.description,
    type: f.type,
    project: f.project,
    stale: f.stale,
    impressionData: f.impressionData,
    archived: f.archivedAt !== null,
    archivedAt: f.archivedAt,
    createdAt: f.createdAt,
    lastSeenAt: f.lastSeenAt,
  };
}

export function describeStrategy(s: FeatureStrategy) {
  return {
    id: s.id,
    name: s.name,
    title: s.title,
    disabled: s.disabled,
    featureName: s.featureName,
    constraints: s.constraints,
    parameters: s.parameters,
    variants: s.variants,
    segments: s.segments,
    sortOrder: s.sortOrder,
  };
}

function describeEnvironment(e: FeatureEnvironment, strategies: FeatureStrategy[]) {
  return {
    name: e.name,
    environment: e.name,
    featureName: e.featureName,
    type: e.type,
    enabled: e.enabled,
    sortOrder: e.sortOrder,
    variantCount: e.variants.length,
    variants: e.variants,
    strategies: strategies.map(describeStrategy),
    hasStrategies: strategies.length > 0,
    hasEnabledStrategies: strategies.some((s) => !s.disabled),
    lastSeenAt: e.lastSeenAt,
  };
}

/** A feature with each of its environments, their strategies and variants. */
export async function readFeature(db: Queryable, project: string, name: string) {
  const feature = await getLiveFeature(db, project, name);
  const [environments, strategies] = await Promise.all([
    environmentsOfFeatures(db, [name]),
    strategiesOfFeatures(db, [name]),
  ]);
  return {
    ...describeFeature(feature),
    favorite: false,
    environments: environments.map((e) =>
      describeEnvironment(
        e,
        strategies.filter((s) => s.environment === e.name),
      ),
    ),
    variants: [],
    children: [],
    dependencies: [],
  };
}

/**
 * The live features of a project, each with its environments (without their strategies), as
 * ready-to-send JSON text: lists of thousands of features skip building and serializing objects.
 */
export async function readProjectFeatures(db: Queryable, project: string): Promise<string> {
  await getProject(db, project);
  return `{"version":2,"features":${await liveFeatureListJson(db, project)}}`;
}

export interface NewFeatureInput {
  name: string;
  description?: string | null;
  type?: string;
  impressionData?: boolean;
}

export async function createFeature(
  ctx: AppContext,
  identity: Identity,
  project: string,
  input: NewFeatureInput,
) {
  const actor = actorOf(identity);
  return ctx.db.transaction(async (tx) => {
    await getProject(tx, project);
    const existing = await findFeature(tx, input.name);
    if (existing) {
      throw new NameExistsError(
        existing.archivedAt
          ? `An archived feature named "${input.name}" already exists: revive it, or delete it from the archive first.`
          : `A feature named "${input.name}" already exists (in the project "${existing.project}").`,
      );
    }
    const feature = await insertFeature(tx, {
      name: input.name,
      project,
      description: input.description || null,
      type: input.type ?? 'release',
      impressionData: input.impressionData ?? false,
      createdByUserId: actor.userId,
    });
    const data = describeFeature(feature);
    await recordEvent(tx, actor, { type: 'feature-created', project, featureName: feature.name, data });
    return data;
  });
}
