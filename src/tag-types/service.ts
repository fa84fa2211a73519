import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import type { ReadOptions } from '../db/lock.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NotFoundError, ValidationError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import {
  deleteTagType,
  findTagType,
  insertTagType,
  listTagTypes,
  updateTagType,
  upsertTagTypes,
} from './store.js';
import type { TagType } from './types.js';

export async function getTagType(db: Queryable, name: string, options?: ReadOptions): Promise<TagType> {
  const tagType = await findTagType(db, name, options);
  if (!tagType) {
    throw new NotFoundError(
      `There is no tag type named "${name}": create it with POST /api/admin/tag-types.`,
    );
  }
  return tagType;
}

export async function readTagTypes(db: Queryable) {
  return { version: 1 as const, tagTypes: await listTagTypes(db) };
}

export async function readTagType(db: Queryable, name: string) {
  return { version: 1 as const, tagType: await getTagType(db, name) };
}

export interface TagTypeInput {
  name: string;
  description?: string | null;
  icon?: string | null;
}

async function assertFree(db: Queryable, name: string): Promise<void> {
  if (await findTagType(db, name)) throw new NameExistsError(`A tag type named "${name}" already exists.`);
}

/** 200 when the name could be used for a new tag type, 409 when it is taken. */
export async function validateTagType(db: Queryable, input: TagTypeInput) {
  await assertFree(db, input.name);
  return {
    valid: true,
    tagType: { name: input.name, description: input.description ?? null, icon: input.icon ?? null },
  };
}

export async function createTagType(
  ctx: AppContext,
  identity: Identity,
  input: TagTypeInput,
): Promise<TagType> {
  const create = () =>
    ctx.db.transaction(async (tx) => {
      await assertFree(tx, input.name);
      const tagType = await insertTagType(tx, {
        name: input.name,
        description: input.description ?? null,
        icon: input.icon ?? null,
      });
      recordEvent(tx, actorOf(identity), { type: 'tag-type-created', data: tagType });
      return tagType;
    });
  return checkAgainOnDuplicate(create, () => assertFree(ctx.db, input.name));
}

/** PUT: description and icon become what was sent (omitted: kept). The name never changes. */
export async function changeTagType(
  ctx: AppContext,
  identity: Identity,
  name: string,
  input: Partial<TagTypeInput>,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (input.name !== undefined && input.name !== name) {
      throw new ValidationError(
        `A tag type cannot be renamed: the body says "${input.name}" but the path "${name}".`,
        [{ path: 'name', message: 'The name of a tag type cannot change.' }],
      );
    }
    const before = await getTagType(tx, name, { lock: 'update' });
    const after = await updateTagType(tx, {
      name,
      description: input.description === undefined ? before.description : input.description,
      icon: input.icon === undefined ? before.icon : input.icon,
    });
    recordEvent(tx, actorOf(identity), { type: 'tag-type-updated', data: after, preData: before });
  });
}

/** Deletes the type; its tags go with it and leave the features that carried them. */
export async function removeTagType(ctx: AppContext, identity: Identity, name: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await getTagType(tx, name, { lock: 'exclusive' });
    await deleteTagType(tx, name);
    recordEvent(tx, actorOf(identity), { type: 'tag-type-deleted', preData: before });
  });
}

/** Every tag type, by name. */
export function allTagTypes(db: Queryable): Promise<TagType[]> {
  return listTagTypes(db);
}

/** Creates or overwrites tag types as an import lists them. */
export function writeTagTypes(tx: Transaction, rows: TagType[]): Promise<void> {
  return upsertTagTypes(tx, rows);
}
