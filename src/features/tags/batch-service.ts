import type { AppContext } from '../../app-context.js';
import type { Transaction } from '../../db/database.js';
import { recordEvent } from '../../events/service.js';
import { NotFoundError, ValidationError } from '../../http/errors.js';
import { type Actor, actorOf, type Identity } from '../../http/identity.js';
import { getProject } from '../../projects/service.js';
import { getTagType } from '../../tag-types/service.js';
import { ensureTag } from '../../tags/service.js';
import type { Tag } from '../../tags/types.js';
import { type Feature, findFeatures } from '../core/queries.js';
import { getAnyFeature } from '../core/service.js';
import { tagsOfFeatures } from './service.js';
import { deleteFeatureTagPairs, insertFeatureTagPairs } from './store.js';

export interface TagChanges {
  addedTags: Tag[];
  removedTags: Tag[];
}

function unique(tags: readonly Tag[]): Tag[] {
  const seen = new Map(tags.map((t) => [`${t.type}\u0000${t.value}`, { type: t.type, value: t.value }]));
  return [...seen.values()];
}

/** Tags are added under types that exist: one that does not is the body's mistake (400). */
async function checkTagTypes(tx: Transaction, tags: readonly Tag[]): Promise<void> {
  for (const type of new Set(tags.map((t) => t.type))) {
    try {
      await getTagType(tx, type);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw new ValidationError(`There is no tag type named "${type}": create it first.`, [
        { path: 'addedTags', message: `Unknown tag type "${type}".` },
      ]);
    }
  }
}

/**
 * Adds, then takes off, tags on the features, as Unleash does (a tag in both lists ends off):
 * a new tag is created first (`tag-created`); each tag a feature gains is a `feature-tagged`
 * event, each it loses a `feature-untagged`. What a feature has already, or lacks, records nothing.
 */
async function changeTags(tx: Transaction, actor: Actor, features: Feature[], changes: TagChanges) {
  const added = unique(changes.addedTags);
  const removed = unique(changes.removedTags);
  await checkTagTypes(tx, added);
  for (const tag of added) await ensureTag(tx, actor, tag);
  const projectOf = new Map(features.map((f) => [f.name, f.project]));
  const pairs = (tags: Tag[]) => features.flatMap((f) => tags.map((t) => ({ ...t, featureName: f.name })));
  for (const p of await insertFeatureTagPairs(tx, pairs(added), actor.userId)) {
    recordEvent(tx, actor, {
      type: 'feature-tagged',
      project: projectOf.get(p.featureName),
      featureName: p.featureName,
      data: { type: p.type, value: p.value },
    });
  }
  for (const p of await deleteFeatureTagPairs(tx, pairs(removed))) {
    recordEvent(tx, actor, {
      type: 'feature-untagged',
      project: projectOf.get(p.featureName),
      featureName: p.featureName,
      preData: { type: p.type, value: p.value },
    });
  }
}

/** PUT /api/admin/features/:f/tags: answers the feature's tags afterwards. */
export async function changeFeatureTags(
  ctx: AppContext,
  identity: Identity,
  featureName: string,
  changes: TagChanges,
) {
  return ctx.db.transaction(async (tx) => {
    const feature = await getAnyFeature(tx, featureName, { lock: 'share' });
    await changeTags(tx, actorOf(identity), [feature], changes);
    return { version: 1 as const, tags: (await tagsOfFeatures(tx, [featureName])).get(featureName) ?? [] };
  });
}

/**
 * PUT /api/admin/projects/:p/tags: the same changes on several features of the project, in one
 * transaction. A name of no feature is a 404; a feature of another project, which the permission
 * checked in this project does not cover, is refused (400, as Unleash does).
 */
export async function changeProjectFeatureTags(
  ctx: AppContext,
  identity: Identity,
  project: string,
  names: readonly string[],
  changes: TagChanges,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await getProject(tx, project);
    const unique = [...new Set(names)];
    const features = await findFeatures(tx, unique, { lock: 'share' });
    const found = new Set(features.map((f) => f.name));
    const missing = unique.filter((n) => !found.has(n));
    if (missing.length > 0) {
      throw new NotFoundError(`There is no feature named ${missing.map((n) => `"${n}"`).join(', ')}.`);
    }
    const elsewhere = features.filter((f) => f.project !== project);
    if (elsewhere.length > 0) {
      throw new ValidationError(
        `These features are not in the project "${project}": ${elsewhere
          .map((f) => `"${f.name}"`)
          .join(', ')}. Tag each project's features through that project.`,
        [{ path: 'features', message: 'Features of another project.' }],
      );
    }
    await changeTags(tx, actorOf(identity), features, changes);
  });
}
