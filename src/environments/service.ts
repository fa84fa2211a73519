import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import type { ReadOptions } from '../db/lock.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NoAccessError, NotFoundError, ValidationError } from '../http/errors.js';
import { type Actor, actorOf, type Identity } from '../http/identity.js';
import { INT4_MAX } from '../http/schemas.js';
import {
  deleteEnvironment,
  type EnvironmentWithCounts,
  findEnvironment,
  insertEnvironment,
  lastSortOrder,
  listEnvironments,
  updateEnvironment,
  upsertEnvironments,
} from './store.js';
import type { Environment } from './types.js';

export async function getEnvironment(
  db: Queryable,
  name: string,
  options?: ReadOptions,
): Promise<EnvironmentWithCounts> {
  const environment = await findEnvironment(db, name, options);
  if (!environment) {
    throw new NotFoundError(`There is no environment named "${name}": see GET /api/admin/environments.`);
  }
  return environment;
}

/** Creates or overwrites environments as an import lists them (protected ones are the caller's to refuse). */
export function writeEnvironments(tx: Transaction, rows: Omit<Environment, 'protected'>[]): Promise<void> {
  return upsertEnvironments(tx, rows);
}

export async function readEnvironments(db: Queryable) {
  return { version: 1 as const, environments: await listEnvironments(db) };
}

function describe(e: Environment): Environment {
  return { name: e.name, type: e.type, enabled: e.enabled, protected: e.protected, sortOrder: e.sortOrder };
}

async function assertFree(db: Queryable, name: string): Promise<void> {
  if (await findEnvironment(db, name))
    throw new NameExistsError(`An environment named "${name}" already exists.`);
}

/** 200 when the name could be used for a new environment, 409 when it is taken. */
export function validateEnvironmentName(db: Queryable, name: string): Promise<void> {
  return assertFree(db, name);
}

export interface NewEnvironment {
  name: string;
  type: string;
  enabled?: boolean;
  sortOrder?: number;
}

/** A new environment is linked to no project; link it with POST /api/admin/projects/:id/environments. */
export async function createEnvironment(ctx: AppContext, identity: Identity, input: NewEnvironment) {
  const create = () =>
    ctx.db.transaction(async (tx) => {
      await assertFree(tx, input.name);
      await insertEnvironment(tx, {
        name: input.name,
        type: input.type,
        enabled: input.enabled ?? true,
        // After the last one, or beside it when that one is at the highest position there is.
        sortOrder: input.sortOrder ?? Math.min(((await lastSortOrder(tx)) ?? 0) + 1, INT4_MAX),
      });
      const created = await getEnvironment(tx, input.name);
      recordEvent(tx, actorOf(identity), {
        type: 'environment-created',
        environment: created.name,
        data: describe(created),
      });
      return created;
    });
  return checkAgainOnDuplicate(create, () => assertFree(ctx.db, input.name));
}

function assertUnprotected(e: Environment): void {
  if (e.protected) throw new NoAccessError(`The environment "${e.name}" is protected and cannot be changed.`);
}

async function change(
  tx: Transaction,
  actor: Actor,
  before: Environment,
  next: { type: string; sortOrder: number; enabled: boolean },
): Promise<void> {
  if (before.type === next.type && before.sortOrder === next.sortOrder && before.enabled === next.enabled)
    return;
  await updateEnvironment(tx, { name: before.name, ...next });
  recordEvent(tx, actor, {
    type: 'environment-updated',
    environment: before.name,
    data: describe({ ...before, ...next }),
    preData: describe(before),
  });
}

export interface EnvironmentUpdate {
  name?: string;
  type?: string;
  sortOrder?: number;
}

/** PUT: type and sort order become what was sent (omitted: kept). The name never changes. */
export async function changeEnvironment(
  ctx: AppContext,
  identity: Identity,
  name: string,
  input: EnvironmentUpdate,
) {
  return ctx.db.transaction(async (tx) => {
    if (input.name !== undefined && input.name !== name) {
      throw new ValidationError(
        `An environment cannot be renamed: the body says "${input.name}" but the path "${name}".`,
        [{ path: 'name', message: 'The name of an environment cannot change.' }],
      );
    }
    const before = await getEnvironment(tx, name, { lock: 'update' });
    assertUnprotected(before);
    await change(tx, actorOf(identity), before, {
      type: input.type ?? before.type,
      sortOrder: input.sortOrder ?? before.sortOrder,
      enabled: before.enabled,
    });
    return getEnvironment(tx, name);
  });
}

/**
 * A disabled environment is kept with everything in it, but new projects no longer get it.
 * Turning it on or off again is not an error and changes nothing.
 */
export async function setEnvironmentEnabled(
  ctx: AppContext,
  identity: Identity,
  name: string,
  enabled: boolean,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await getEnvironment(tx, name, { lock: 'update' });
    await change(tx, actorOf(identity), before, { type: before.type, sortOrder: before.sortOrder, enabled });
  });
}

/** Sets the sort order of the named environments (all must exist); one event per one that moved. */
export async function setSortOrder(
  ctx: AppContext,
  identity: Identity,
  order: Record<string, number>,
): Promise<void> {
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    const names = Object.keys(order);
    const locked = new Map<string, Environment>();
    // Locked in one order, so that two of these at once cannot deadlock; changed in the order sent.
    for (const name of [...names].sort())
      locked.set(name, await getEnvironment(tx, name, { lock: 'update' }));
    for (const before of names.map((name) => locked.get(name)!)) {
      await change(tx, actor, before, {
        type: before.type,
        sortOrder: order[before.name]!,
        enabled: before.enabled,
      });
    }
  });
}

/**
 * Deletes an environment with its feature settings and strategies in every project. Refused
 * while API tokens point at it, so no SDK silently loses its flags.
 */
export async function removeEnvironment(ctx: AppContext, identity: Identity, name: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await getEnvironment(tx, name, { lock: 'exclusive' });
    assertUnprotected(before);
    if (before.apiTokenCount > 0) {
      throw new NameExistsError(
        `The environment "${name}" is used by ${before.apiTokenCount} API token${before.apiTokenCount === 1 ? '' : 's'}: ` +
          'delete those tokens first.',
      );
    }
    await deleteEnvironment(tx, name);
    recordEvent(tx, actorOf(identity), {
      type: 'environment-deleted',
      environment: name,
      preData: describe(before),
    });
  });
}
