import type { AppContext } from '../../app-context.js';
import type { Queryable, Transaction } from '../../db/database.js';
import { checkAgainOnDuplicate } from '../../db/errors.js';
import type { ReadOptions } from '../../db/lock.js';
import { recordEvent } from '../../events/service.js';
import { NameExistsError, NoAccessError, NotFoundElsewhere, NotFoundError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import { getProject, projectEnvironmentNames } from '../../projects/service.js';
import type { FeatureModel } from '../../read-model/model.js';
import type { FeatureRecord } from '../../read-model/queries.js';
import { attachFeatureEnvironments } from '../environments/writes.js';
import type { FeatureStrategy } from '../strategies/queries.js';
import { type Feature, findFeature, findFeatures, rememberFeature } from './store.js';
import { insertFeature } from './writes.js';

/**
 * The feature of that name in that project, or 404 — also when it belongs to another project (the
 * message says which, since that is the usual mistake) and, unless asked for, when it is archived.
 */
export async function getFeature(
  db: Queryable,
  project: string,
  name: string,
  options: { includeArchived?: boolean } & ReadOptions = {},
): Promise<Feature> {
  return inProject(await findFeature(db, name, options), project, name, options);
}

/**
 * The feature found, if it is a feature of the project (and live, unless archived ones are asked
 * for); otherwise the 404 — whose message names the right project, the usual mistake.
 */
function inProject<F extends Feature>(
  feature: F | null | undefined,
  project: string,
  name: string,
  options: { includeArchived?: boolean },
): F {
  if (!feature || (feature.archivedAt && !options.includeArchived)) {
    throw new NotFoundError(`There is no feature named "${name}" in the project "${project}".`);
  }
  if (feature.project !== project) {
    const absent = `There is no feature named "${name}" in the project "${project}"`;
    throw new NotFoundElsewhere(
      `${absent}; it is in the project "${feature.project}".`,
      feature.project,
      `${absent}.`,
    );
  }
  return feature;
}

/**
 * The named features that exist (archived or not), after checking that every one of them belongs
 * to the project: a list naming another project's feature is refused whole (403), as Unleash does,
 * without naming that project (it may be a private one).
 */
export async function namedFeaturesOfProject(
  db: Queryable,
  project: string,
  names: string[],
  options?: ReadOptions,
): Promise<Feature[]> {
  const features = await findFeatures(db, [...new Set(names)], options);
  const elsewhere = features.filter((f) => f.project !== project);
  if (elsewhere.length > 0) {
    throw new NoAccessError(
      `These features are not in the project "${project}": ${elsewhere
        .map((f) => `"${f.name}"`)
        .join(', ')}. Send each list to the project its features belong to.`,
    );
  }
  return features;
}

function noSuchFeature(name: string): NotFoundError {
  return new NotFoundError(`There is no feature named "${name}", archived or not.`);
}

/** The feature of that name in any project, archived or not, or 404. */
export async function getAnyFeature(db: Queryable, name: string, options?: ReadOptions): Promise<Feature> {
  const feature = await findFeature(db, name, options);
  if (!feature) throw noSuchFeature(name);
  return feature;
}

/** For routes that name a feature but not its project: the project to check permissions in. */
export function projectOfFeature(model: FeatureModel, name: string): string | undefined {
  return model.feature(name)?.project;
}

/**
 * The route config of a path that names a feature (by its `param`) but not its project: the
 * permission is checked in the feature's project, and a feature of a project hidden from the
 * caller is answered as one that does not exist.
 */
export function featureNamedScope(model: FeatureModel, param = 'featureName') {
  const nameOf = (request: { params: unknown }) => (request.params as Record<string, string>)[param]!;
  return {
    projectOf: (request: { params: unknown }) => projectOfFeature(model, nameOf(request)),
    notFound: (request: { params: unknown }) => noSuchFeature(nameOf(request)),
  };
}

/** The live (not archived) feature of that name in that project, or 404. */
export function getLiveFeature(
  db: Queryable,
  project: string,
  name: string,
  options?: ReadOptions,
): Promise<Feature> {
  return getFeature(db, project, name, options);
}

/**
 * The live feature read locked for a change in `tx` (404 as `getLiveFeature`). While the
 * transaction has written nothing, on a database this process alone writes and with every commit
 * in the model (the first change of a group on the embedded database), the row is the model's
 * copy: no statement.
 */
export function lockedFeature(
  ctx: AppContext,
  tx: Transaction,
  project: string,
  name: string,
): Promise<Feature> {
  const held = tx.writes === 'none' && ctx.sync.holdsEverythingNow() ? ctx.model.feature(name) : undefined;
  if (held) rememberFeature(tx, held);
  return getLiveFeature(tx, project, name, { lock: 'update' });
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

export function describeStrategy(s: Omit<FeatureStrategy, 'createdAt' | 'environment'>) {
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

/**
 * A change is first worked out against what it changes as it is, before any lock: one that would
 * change nothing answers from there (this answers what it was worked out against), one that would
 * change something goes on to its transaction (undefined), which works it out again on the rows it
 * locks. What it is worked out against is the read model where that holds exactly what the
 * database holds (the embedded database, whose only writer is this process, once its own commits
 * are in). Elsewhere the model may be a moment behind another process: its "changes something" is
 * taken (the transaction decides anyway), while a no-op or a refusal is confirmed on the database.
 */
export async function unlessItChanges<T>(
  ctx: AppContext,
  fromModel: (model: FeatureModel) => T,
  read: (db: Queryable) => Promise<T>,
  changes: (current: T) => boolean,
): Promise<T | undefined> {
  let current: T;
  if (await ctx.sync.holdsEverything()) {
    current = fromModel(ctx.model);
  } else {
    try {
      if (changes(fromModel(ctx.model))) return undefined;
    } catch {
      // A refusal by a model a moment behind: the database's answer is the one given.
    }
    current = await read(ctx.db);
  }
  return changes(current) ? undefined : current;
}

/**
 * The feature of that name in that project from the read model, or 404 — with the same messages
 * as `getFeature`.
 */
export function getModelFeature(
  model: FeatureModel,
  project: string,
  name: string,
  options: { includeArchived?: boolean } = {},
): FeatureRecord {
  return inProject(model.feature(name), project, name, options);
}

export interface NewFeatureInput {
  name: string;
  description?: string | null;
  type?: string;
  impressionData?: boolean;
}

/** 409 when any feature has the name, archived ones included. */
export async function assertNameFree(db: Queryable, name: string): Promise<void> {
  const existing = await findFeature(db, name);
  if (existing) {
    throw new NameExistsError(
      existing.archivedAt
        ? `An archived feature named "${name}" already exists: revive it, or delete it from the archive first.`
        : `A feature named "${name}" already exists (in the project "${existing.project}").`,
    );
  }
}

export async function createFeature(
  ctx: AppContext,
  identity: Identity,
  project: string,
  input: NewFeatureInput,
) {
  const actor = actorOf(identity);
  const create = () =>
    ctx.db.transaction(async (tx) => {
      await getProject(tx, project);
      await assertNameFree(tx, input.name);
      const feature = await insertFeature(tx, {
        name: input.name,
        project,
        description: input.description || null,
        type: input.type ?? 'release',
        impressionData: input.impressionData ?? false,
        createdByUserId: actor.userId,
      });
      // Read after the insert, whose key-share lock on the project waits for a link or unlink of
      // its environments to commit: the feature gets exactly the project's environments.
      await attachFeatureEnvironments(tx, feature.name, await projectEnvironmentNames(tx, project));
      const data = describeFeature(feature);
      recordEvent(tx, actor, { type: 'feature-created', project, featureName: feature.name, data });
      return data;
    });
  return checkAgainOnDuplicate(create, () => assertNameFree(ctx.db, input.name));
}
