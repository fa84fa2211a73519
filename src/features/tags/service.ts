import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../db/database.js';
import { checkAgainOnDuplicate } from '../../db/errors.js';
import { recordEvent } from '../../events/service.js';
import { NameExistsError, NotFoundError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import { getTagType } from '../../tag-types/service.js';
import { ensureTag, tagOf } from '../../tags/service.js';
import type { Tag } from '../../tags/types.js';
import { getAnyFeature } from '../core/service.js';
import { deleteFeatureTag, featureHasTag, insertFeatureTag, tagsOfFeatureList } from './store.js';

/** The tags of each of the given features (for events that describe deleted features). */
export async function tagsOfFeatures(db: Queryable, featureNames: string[]): Promise<Map<string, Tag[]>> {
  const byFeature = new Map<string, Tag[]>();
  for (const t of await tagsOfFeatureList(db, featureNames)) {
    const list = byFeature.get(t.featureName) ?? [];
    list.push({ type: t.type, value: t.value });
    byFeature.set(t.featureName, list);
  }
  return byFeature;
}

export async function readFeatureTags(db: Queryable, featureName: string) {
  await getAnyFeature(db, featureName);
  const tags = (await tagsOfFeatures(db, [featureName])).get(featureName) ?? [];
  return { version: 1 as const, tags };
}

async function assertNotTagged(db: Queryable, featureName: string, tag: Tag): Promise<void> {
  if (await featureHasTag(db, featureName, tag)) {
    throw new NameExistsError(
      `The feature "${featureName}" already has the tag "${tag.value}" of the type "${tag.type}".`,
    );
  }
}

/**
 * Tags a feature, creating the tag first (with its own `tag-created` event) when it is new —
 * also when another request is creating it at the same moment, for this or another feature.
 * The tag type must exist; a feature already carrying the tag gets 409.
 */
export async function tagFeature(
  ctx: AppContext,
  identity: Identity,
  featureName: string,
  input: { type?: string; value: string },
): Promise<Tag> {
  const tag = tagOf(input);
  const actor = actorOf(identity);
  const add = () =>
    ctx.db.transaction(async (tx) => {
      const feature = await getAnyFeature(tx, featureName);
      await getTagType(tx, tag.type);
      await assertNotTagged(tx, featureName, tag);
      await ensureTag(tx, actor, tag);
      await insertFeatureTag(tx, featureName, tag, actor.userId);
      recordEvent(tx, actor, {
        type: 'feature-tagged',
        project: feature.project,
        featureName,
        data: tag,
      });
      return tag;
    });
  return checkAgainOnDuplicate(add, () => assertNotTagged(ctx.db, featureName, tag));
}

export async function untagFeature(
  ctx: AppContext,
  identity: Identity,
  featureName: string,
  tag: Tag,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const feature = await getAnyFeature(tx, featureName);
    if (!(await featureHasTag(tx, featureName, tag, { lock: 'exclusive' }))) {
      throw new NotFoundError(
        `The feature "${featureName}" does not have the tag "${tag.value}" of the type "${tag.type}".`,
      );
    }
    await deleteFeatureTag(tx, featureName, tag);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-untagged',
      project: feature.project,
      featureName,
      preData: tag,
    });
  });
}
