import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import type { ReadOptions } from '../db/lock.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NotFoundError } from '../http/errors.js';
import { type Actor, actorOf, type Identity } from '../http/identity.js';
import { getTagType } from '../tag-types/service.js';
import {
  deleteAllTags,
  deleteTag,
  insertTag,
  insertTagIfAbsent,
  insertTagsIfAbsent,
  listTags,
  tagExists,
} from './store.js';
import type { Tag } from './types.js';

const DEFAULT_TAG_TYPE = 'simple';

/** A tag as sent: the type defaults to "simple". */
export function tagOf(input: { type?: string; value: string }): Tag {
  return { type: input.type ?? DEFAULT_TAG_TYPE, value: input.value };
}

async function getTag(db: Queryable, tag: Tag, options?: ReadOptions): Promise<Tag> {
  if (!(await tagExists(db, tag, options))) {
    throw new NotFoundError(`There is no tag "${tag.value}" of the type "${tag.type}".`);
  }
  return tag;
}

export async function readTags(db: Queryable, type?: string) {
  if (type !== undefined) await getTagType(db, type);
  return { version: 1 as const, tags: await listTags(db, type) };
}

export async function readTag(db: Queryable, type: string, value: string) {
  return { version: 1 as const, tag: await getTag(db, { type, value }) };
}

async function assertTagFree(db: Queryable, tag: Tag): Promise<void> {
  if (await tagExists(db, tag)) {
    throw new NameExistsError(`The tag "${tag.value}" of the type "${tag.type}" already exists.`);
  }
}

export async function createTag(
  ctx: AppContext,
  identity: Identity,
  input: { type?: string; value: string },
): Promise<Tag> {
  const tag = tagOf(input);
  const create = () =>
    ctx.db.transaction(async (tx) => {
      await getTagType(tx, tag.type);
      await assertTagFree(tx, tag);
      await insertTag(tx, tag);
      recordEvent(tx, actorOf(identity), { type: 'tag-created', data: tag });
      return tag;
    });
  return checkAgainOnDuplicate(create, () => assertTagFree(ctx.db, tag));
}

/** Deletes a tag; the features that carried it lose it. */
export async function removeTag(
  ctx: AppContext,
  identity: Identity,
  type: string,
  value: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const tag = await getTag(tx, { type, value }, { lock: 'exclusive' });
    await deleteTag(tx, tag);
    recordEvent(tx, actorOf(identity), { type: 'tag-deleted', preData: tag });
  });
}

/**
 * For tagging a feature: creates the tag with its own `tag-created` event when it is new — also
 * when another request is creating it at the same moment. The caller has checked its tag type.
 */
export async function ensureTag(tx: Transaction, actor: Actor, tag: Tag): Promise<void> {
  if (await insertTagIfAbsent(tx, tag)) recordEvent(tx, actor, { type: 'tag-created', data: tag });
}

/** Every tag (for an export). */
export function allTags(db: Queryable): Promise<Tag[]> {
  return listTags(db);
}

/** Creates those of the tags that are new (the caller checked their types); answers which. */
export function ensureTags(tx: Transaction, tags: Tag[]): Promise<Tag[]> {
  return insertTagsIfAbsent(tx, tags);
}

/** Deletes every tag (an import that replaces everything); answers how many there were. */
export function dropAllTags(tx: Transaction): Promise<number> {
  return deleteAllTags(tx);
}
