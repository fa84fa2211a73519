import type { Queryable, Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import type { Actor } from '../http/identity.js';
import { findSetting, lockSetting, saveSetting } from './store.js';

/** Unleash's names for the records, so the events read the same. */
export const OIDC_SETTING = 'unleash.enterprise.auth.oidc';
export const SIMPLE_SETTING = 'unleash.auth.simple';

/** A setting of another area (the maintenance switch), or null when it was never saved. */
export async function findNamedSetting<T>(db: Queryable, name: string): Promise<T | null> {
  return findSetting<T>(db, name);
}

/**
 * Saves a setting of another area with its event, as Unleash records one: `setting-created` the
 * first time, `setting-updated` after, the data being `{ id: name, …value }` — of the value as `show`
 * gives it, for one holding a secret events must not. Answers the value before.
 */
export async function saveNamedSetting<T extends object>(
  tx: Transaction,
  actor: Actor,
  name: string,
  value: T,
  show: (v: T) => object = (v) => v,
): Promise<T | null> {
  const before = await lockSetting<T>(tx, name);
  await saveSetting(tx, name, value);
  recordEvent(tx, actor, {
    type: before === null ? 'setting-created' : 'setting-updated',
    data: { id: name, ...show(value) },
    preData: before === null ? null : show(before),
  });
  return before;
}
