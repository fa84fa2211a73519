import type { AppContext } from '../../app-context.js';
import type { Transaction } from '../../db/database.js';
import { recordEvent } from '../../events/service.js';
import { NoAccessError, NotFoundError } from '../../http/errors.js';
import { type Actor, actorOf, type Identity } from '../../http/identity.js';
import type { FeatureModel } from '../../read-model/model.js';
import type { FeatureRecord } from '../../read-model/queries.js';
import { type Feature, findFeatures } from '../core/queries.js';
import { getModelFeature } from '../core/service.js';
import {
  deleteDependenciesOf,
  deleteDependency,
  dependenciesOf,
  dependenciesOn,
  setDependencies,
} from './store.js';

// Feature dependencies: a child is on only while its parent's condition holds. One parent per
// child, in the child's project; a parent has no parent itself, so chains and cycles cannot form.

export interface DependencyInput {
  feature: string;
  enabled?: boolean;
  variants?: string[];
}

function noDependency(child: string, parent: string, project: string): NotFoundError {
  return new NotFoundError(
    `The feature "${child}" of the project "${project}" does not depend on "${parent}": see its \`dependencies\`.`,
  );
}

/**
 * The rules of a new dependency, against `features` as read (locked) in the transaction: 403 for
 * a parent that is the child itself, is not live or has a parent, and for a child that has
 * children; 404 when either is not a feature of the project.
 */
async function assertCanDepend(
  tx: Transaction,
  project: string,
  child: string,
  parent: string,
  features: Map<string, Feature>,
): Promise<void> {
  if (child === parent) throw new NoAccessError(`A feature cannot depend on itself ("${child}").`);
  const parentFeature = features.get(parent);
  if (!parentFeature || parentFeature.archivedAt) {
    throw new NoAccessError(
      `There is no live feature named "${parent}" to depend on${parentFeature ? ': it is archived' : ''}.`,
    );
  }
  const childFeature = features.get(child);
  if (!childFeature || childFeature.archivedAt || childFeature.project !== project) {
    throw new NotFoundError(
      `There is no live feature named "${child}" in the project "${project}" to give a parent.`,
    );
  }
  if (parentFeature.project !== project) {
    throw new NotFoundError(
      `The feature "${parent}" is in another project: a parent must be in its child's project, "${project}".`,
    );
  }
  if ((await dependenciesOf(tx, [parent])).length > 0) {
    throw new NoAccessError(
      `The feature "${parent}" depends on another feature itself, so it cannot be a parent: dependencies are one level deep.`,
    );
  }
  if ((await dependenciesOn(tx, [child])).length > 0) {
    throw new NoAccessError(
      `Other features depend on "${child}", so it cannot have a parent itself: dependencies are one level deep.`,
    );
  }
}

/** Gives the child its parent (replacing the one it had); a dependency already as sent changes nothing. */
export async function addDependency(
  ctx: AppContext,
  identity: Identity,
  project: string,
  child: string,
  input: DependencyInput,
): Promise<void> {
  const enabled = input.enabled ?? true;
  const dependency = {
    child,
    feature: input.feature,
    enabled,
    // Variants only narrow a parent that must be on.
    variants: enabled ? [...new Set(input.variants ?? [])] : [],
  };
  await ctx.db.transaction(async (tx) => {
    // Both rows, in name order: two changes on a shared feature (a parent gaining a parent while
    // a child gains it as parent, an archive) take turns and each sees what the other left.
    const names = [...new Set([child, input.feature])].sort();
    const features = new Map((await findFeatures(tx, names, { lock: 'exclusive' })).map((f) => [f.name, f]));
    await assertCanDepend(tx, project, child, input.feature, features);
    const [before] = await dependenciesOf(tx, [child]);
    if (
      before &&
      before.feature === dependency.feature &&
      before.enabled === dependency.enabled &&
      before.variants.join('\u0000') === dependency.variants.join('\u0000')
    ) {
      return;
    }
    await setDependencies(tx, [dependency]);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-dependency-added',
      project,
      featureName: child,
      data: {
        feature: input.feature,
        enabled,
        ...(input.variants !== undefined ? { variants: dependency.variants } : {}),
      },
    });
  });
}

/** Removes the child's dependency on that parent (404 when it has none). */
export async function removeDependency(
  ctx: AppContext,
  identity: Identity,
  project: string,
  child: string,
  parent: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [feature] = await findFeatures(tx, [child], { lock: 'update' });
    if (feature?.project !== project || !(await deleteDependency(tx, child, parent))) {
      throw noDependency(child, parent, project);
    }
    recordEvent(tx, actorOf(identity), {
      type: 'feature-dependency-removed',
      project,
      featureName: child,
      data: { feature: parent },
    });
  });
}

/** Records `feature-dependencies-removed` for each child that lost its dependencies. */
export async function writeDependencyRemovals(
  tx: Transaction,
  actor: Actor,
  features: Pick<Feature, 'name' | 'project'>[],
): Promise<void> {
  const removed = new Set(
    await deleteDependenciesOf(
      tx,
      features.map((f) => f.name),
    ),
  );
  for (const f of features.filter((f) => removed.has(f.name))) {
    recordEvent(tx, actor, { type: 'feature-dependencies-removed', project: f.project, featureName: f.name });
  }
}

/** Removes every dependency of the child (404 when it has none). */
export async function removeDependencies(
  ctx: AppContext,
  identity: Identity,
  project: string,
  child: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [feature] = await findFeatures(tx, [child], { lock: 'update' });
    if (feature?.project !== project || (await dependenciesOf(tx, [child])).length === 0) {
      throw new NotFoundError(
        `The feature "${child}" of the project "${project}" has no dependencies to remove.`,
      );
    }
    await writeDependencyRemovals(tx, actorOf(identity), [feature]);
  });
}

/** Which of the named features have live children outside the list: archiving them is refused (403). */
export async function assertNoChildrenLeftBehind(tx: Transaction, names: string[]): Promise<void> {
  const leaving = new Set(names);
  const parents = [
    ...new Set((await dependenciesOn(tx, names)).filter((d) => !leaving.has(d.child)).map((d) => d.feature)),
  ];
  if (parents.length === 0) return;
  throw new NoAccessError(
    `Other features depend on ${parents.map((p) => `"${p}"`).join(', ')}: archive or delete ${parents.length === 1 ? 'it' : 'them'} ` +
      'together with the features that depend on them, or remove those dependencies first.',
  );
}

/** The features of the project the child may depend on: live, not itself, without a parent of their own. */
export function readParentOptions(model: FeatureModel, project: string, child: string): string[] {
  getModelFeature(model, project, child);
  return model
    .liveFeaturesOf(project)
    .filter((f) => f.name !== child && f.dependencies.length === 0)
    .map((f) => f.name);
}

/**
 * The names of the parent's variants, in every environment and strategy, for a dependency to ask for.
 * A name that is no feature of the project has none: the admin UI asks before a parent is chosen.
 */
export function readParentVariants(model: FeatureModel, project: string, parent: string): string[] {
  const feature = model.feature(parent);
  if (!feature || feature.project !== project) return [];
  const names = new Set<string>();
  const add = (variants: unknown[]) => {
    for (const v of variants as { name: string }[]) names.add(v.name);
  };
  for (const e of feature.environments) add(e.variants);
  for (const s of feature.strategies) add(s.variants);
  return [...names].sort();
}

/** Whether any live feature of the project depends on another. */
export function readProjectHasDependencies(model: FeatureModel, project: string): boolean {
  if (!model.project(project)) throw new NotFoundError(`There is no project with the id "${project}".`);
  return model.liveFeaturesOf(project).some((f) => f.dependencies.length > 0);
}

/**
 * What archiving the named features of the project would break: those with children left live,
 * and whether any of them takes part in a dependency (which archiving removes).
 */
export function readArchiveImpact(model: FeatureModel, project: string, names: string[]) {
  if (!model.project(project)) throw new NotFoundError(`There is no project with the id "${project}".`);
  const listed = new Set(names);
  const features = [...listed].flatMap((name) => {
    const f = model.feature(name);
    return f && !f.archivedAt && f.project === project ? [f] : [];
  });
  const parentsWithChildFeatures = features
    .filter((f) => model.children(f.name).some((c) => !listed.has(c)))
    .map((f) => f.name)
    .sort();
  const hasDeletedDependencies = features.some(
    (f: FeatureRecord) => f.dependencies.length > 0 || model.children(f.name).length > 0,
  );
  return { parentsWithChildFeatures, hasDeletedDependencies };
}
