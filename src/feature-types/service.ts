import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { type FeatureType, findFeatureType, listFeatureTypes, setLifetime } from './store.js';

export async function readFeatureTypes(db: Queryable) {
  return { version: 1 as const, types: await listFeatureTypes(db) };
}

/** How many days a feature of the type is expected to live before it counts as potentially stale. */
export async function updateLifetime(
  ctx: AppContext,
  identity: Identity,
  id: string,
  lifetimeDays: number | null,
): Promise<FeatureType> {
  return ctx.db.transaction(async (tx) => {
    const before = await findFeatureType(tx, id);
    if (!before)
      throw new NotFoundError(`There is no feature type "${id}": see GET /api/admin/feature-types.`);
    await setLifetime(tx, id, lifetimeDays);
    const after = { ...before, lifetimeDays };
    recordEvent(tx, actorOf(identity), { type: 'feature-type-updated', data: after, preData: before });
    return after;
  });
}
