import type { AppContext } from '../../app-context.js';
import type { Queryable, Transaction } from '../../db/database.js';
import { recordEvent } from '../../events/service.js';
import { NameExistsError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import type { ProjectVisibility } from '../../http/visibility.js';
import { getProject } from '../../projects/service.js';
import { type Feature, listArchivedFeatures } from '../core/queries.js';
import { describeFeature, getAnyFeature, getLiveFeature, namedFeaturesOfProject } from '../core/service.js';
import { archiveFeatures, deleteFeatures, reviveFeatures } from '../core/writes.js';
import { assertNoChildrenLeftBehind, writeDependencyRemovals } from '../dependencies/service.js';
import { tagsOfFeatures } from '../tags/service.js';

async function recordEach(
  tx: Transaction,
  identity: Identity,
  type: 'feature-archived' | 'feature-revived',
  features: Feature[],
): Promise<void> {
  const actor = actorOf(identity);
  for (const f of features) {
    recordEvent(tx, actor, { type, project: f.project, featureName: f.name, data: describeFeature(f) });
  }
}

// Each change below reads its features locked: an archive, a revival and a deletion of one feature
// happen one after the other, each deciding on what the one before left (a revived feature is
// never deleted for good as if it were still archived; one change is one event).

/**
 * E9: archives the named live features of the project. Unknown and already archived names are
 * ignored; a name of another project's feature refuses the whole list (403), whether or not the
 * project in the path exists.
 */
export async function archiveFeatureList(
  ctx: AppContext,
  identity: Identity,
  project: string,
  names: string[],
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const features = await namedFeaturesOfProject(tx, project, names, { lock: 'update' });
    await archiveLive(
      tx,
      identity,
      features.filter((f) => f.archivedAt === null),
    );
  });
}

/**
 * Archives live features: refused (403) while features not archived with them depend on them;
 * their own dependencies go (with `feature-dependencies-removed`).
 */
async function archiveLive(tx: Transaction, identity: Identity, features: Feature[]): Promise<void> {
  const names = features.map((f) => f.name);
  await assertNoChildrenLeftBehind(tx, names);
  await writeDependencyRemovals(tx, actorOf(identity), features);
  await recordEach(tx, identity, 'feature-archived', await archiveFeatures(tx, names));
}

/** Archives one live feature of the project (404 when there is none of that name). */
export async function archiveFeature(
  ctx: AppContext,
  identity: Identity,
  project: string,
  name: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await archiveLive(tx, identity, [await getLiveFeature(tx, project, name, { lock: 'update' })]);
  });
}

/**
 * E12: revives the named archived features of the project, disabled in every environment.
 * Unknown names and live features are ignored.
 */
export async function reviveFeatureList(
  ctx: AppContext,
  identity: Identity,
  project: string,
  names: string[],
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await getProject(tx, project);
    const features = await namedFeaturesOfProject(tx, project, names, { lock: 'update' });
    const revived = await reviveFeatures(
      tx,
      features.filter((f) => f.archivedAt !== null).map((f) => f.name),
    );
    await recordEach(tx, identity, 'feature-revived', revived);
  });
}

/** Revives one feature by name; a live feature is left as it is. */
export async function reviveFeature(ctx: AppContext, identity: Identity, name: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await getAnyFeature(tx, name, { lock: 'update' });
    await recordEach(tx, identity, 'feature-revived', await reviveFeatures(tx, [name]));
  });
}

async function deleteForGood(tx: Transaction, identity: Identity, features: Feature[]): Promise<void> {
  if (features.length === 0) return;
  const names = features.map((f) => f.name);
  const tags = await tagsOfFeatures(tx, names);
  await deleteFeatures(tx, names);
  const actor = actorOf(identity);
  for (const f of features) {
    recordEvent(tx, actor, {
      type: 'feature-deleted',
      project: f.project,
      featureName: f.name,
      preData: { ...describeFeature(f), tags: tags.get(f.name) ?? [] },
    });
  }
}

/**
 * Deletes the named archived features of the project for good. Live features and unknown names
 * are ignored; another project's feature refuses the whole list (403).
 */
export async function deleteArchivedFeatureList(
  ctx: AppContext,
  identity: Identity,
  project: string,
  names: string[],
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const features = await namedFeaturesOfProject(tx, project, names, { lock: 'exclusive' });
    await deleteForGood(
      tx,
      identity,
      features.filter((f) => f.archivedAt !== null),
    );
  });
}

/** Deletes one archived feature for good; a live one must be archived first (409). */
export async function deleteArchivedFeature(
  ctx: AppContext,
  identity: Identity,
  name: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const feature = await getAnyFeature(tx, name, { lock: 'exclusive' });
    if (feature.archivedAt === null) {
      throw new NameExistsError(
        `The feature "${name}" is not archived: only archived features can be deleted. Archive it first.`,
      );
    }
    await deleteForGood(tx, identity, [feature]);
  });
}

/**
 * Archived features, newest first; of one project (404 if unknown) or of every project the caller
 * sees.
 */
export async function readArchivedFeatures(db: Queryable, visible: ProjectVisibility, project?: string) {
  if (project !== undefined) await getProject(db, project);
  const features = await listArchivedFeatures(db, project);
  return {
    version: 2 as const,
    features: features.filter((f) => visible.sees(f.project)).map(describeFeature),
  };
}

/** Part of deleting a project: its archived features go for good, each with its event. */
export async function deleteArchivedFeaturesOfProject(
  tx: Transaction,
  identity: Identity,
  project: string,
): Promise<void> {
  await deleteForGood(tx, identity, await listArchivedFeatures(tx, project));
}
