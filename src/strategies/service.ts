import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import type { ReadOptions } from '../db/lock.js';
import { recordEvent } from '../events/service.js';
import { throwIfProblems } from '../http/check.js';
import { type ErrorDetail, NameExistsError, NoAccessError, NotFoundError } from '../http/errors.js';
import { type Actor, actorOf, type Identity } from '../http/identity.js';
import {
  type CustomDefinition,
  deleteCustomStrategyDefinitions,
  deleteStrategyDefinition,
  findStrategyDefinition,
  insertCustomStrategyDefinition,
  listStrategyDefinitions,
  updateStrategyDefinition,
  upsertCustomStrategyDefinitions,
} from './store.js';
import type { StrategyDefinition } from './types.js';

export function describeDefinition(d: StrategyDefinition) {
  return {
    name: d.name,
    displayName: d.title ?? d.name,
    title: d.title,
    description: d.description ?? '',
    editable: !d.builtIn,
    deprecated: d.deprecated,
    parameters: d.parameters,
  };
}

export async function readStrategyDefinitions(db: Queryable) {
  return { version: 1 as const, strategies: (await listStrategyDefinitions(db)).map(describeDefinition) };
}

/** The strategy type of that name, or 404. */
export async function getStrategyDefinition(
  db: Queryable,
  name: string,
  options?: ReadOptions,
): Promise<StrategyDefinition> {
  const definition = await findStrategyDefinition(db, name, options);
  if (!definition) {
    throw new NotFoundError(`There is no strategy type "${name}" (GET /api/admin/strategies lists them).`);
  }
  return definition;
}

export async function readStrategyDefinition(db: Queryable, name: string) {
  return describeDefinition(await getStrategyDefinition(db, name));
}

export interface ParameterInput {
  name: string;
  type: string;
  description?: string;
  required?: boolean;
}

/** Parameter definitions as stored; two with one name would leave SDKs one value for both (400). */
function definedParameters(input: ParameterInput[]): StrategyDefinition['parameters'] {
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  input.forEach((p, i) => {
    if (seen.has(p.name)) {
      problems.push({
        path: `parameters.${i}.name`,
        message: `Another parameter is already named "${p.name}": parameter names must differ.`,
      });
    }
    seen.add(p.name);
  });
  throwIfProblems(problems);
  return input.map((p) => ({
    name: p.name,
    type: p.type,
    description: p.description ?? '',
    required: p.required ?? false,
  }));
}

/** Built-in types are part of Flagpole (and of every SDK): refused as Unleash refuses them, 403. */
function assertEditable(d: StrategyDefinition): void {
  if (d.builtIn) {
    throw new NoAccessError(
      `The strategy type "${d.name}" is built in and cannot be changed or deleted: create a custom strategy type instead.`,
    );
  }
}

function customPart(d: StrategyDefinition): CustomDefinition {
  return {
    name: d.name,
    title: d.title,
    description: d.description,
    parameters: d.parameters,
    deprecated: d.deprecated,
  };
}

/** Event data as Unleash gives it: the type with `editable` and `deprecated`. */
function eventData(d: CustomDefinition) {
  return { ...d, editable: true };
}

export interface NewStrategyType {
  name: string;
  title?: string | null;
  description?: string | null;
  deprecated?: boolean;
  parameters: ParameterInput[];
}

async function assertFree(db: Queryable, name: string): Promise<void> {
  if (await findStrategyDefinition(db, name)) {
    throw new NameExistsError(`A strategy type named "${name}" already exists: choose another name.`, [
      { path: 'name', message: 'This name is taken.' },
    ]);
  }
}

export async function createStrategyType(ctx: AppContext, identity: Identity, input: NewStrategyType) {
  const definition: CustomDefinition = {
    name: input.name,
    title: input.title ?? null,
    description: input.description ?? null,
    parameters: definedParameters(input.parameters),
    deprecated: input.deprecated ?? false,
  };
  const create = () =>
    ctx.db.transaction(async (tx) => {
      await assertFree(tx, definition.name);
      await insertCustomStrategyDefinition(tx, definition);
      recordEvent(tx, actorOf(identity), { type: 'strategy-created', data: eventData(definition) });
    });
  await checkAgainOnDuplicate(create, () => assertFree(ctx.db, definition.name));
  return describeDefinition({ ...definition, builtIn: false });
}

export interface StrategyTypeChange {
  title?: string | null;
  description?: string | null;
  parameters: ParameterInput[];
}

/** PUT: the parameters become what was sent; title and description change when sent. */
export async function changeStrategyType(
  ctx: AppContext,
  identity: Identity,
  name: string,
  input: StrategyTypeChange,
): Promise<void> {
  const parameters = definedParameters(input.parameters);
  await ctx.db.transaction(async (tx) => {
    const before = await getStrategyDefinition(tx, name, { lock: 'update' });
    assertEditable(before);
    const after: CustomDefinition = {
      ...customPart(before),
      title: input.title === undefined ? before.title : input.title,
      description: input.description === undefined ? before.description : input.description,
      parameters,
    };
    await updateStrategyDefinition(tx, after);
    recordEvent(tx, actorOf(identity), {
      type: 'strategy-updated',
      data: eventData(after),
      preData: eventData(customPart(before)),
    });
  });
}

/**
 * Deprecation only hides a type from the choices for new strategies; those using it keep working.
 * Built-in types may be deprecated too (as in Unleash), and each call records its event.
 */
export async function setStrategyTypeDeprecated(
  ctx: AppContext,
  identity: Identity,
  name: string,
  deprecated: boolean,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await getStrategyDefinition(tx, name, { lock: 'update' });
    await updateStrategyDefinition(tx, { ...customPart(before), deprecated });
    recordEvent(tx, actorOf(identity), {
      type: deprecated ? 'strategy-deprecated' : 'strategy-reactivated',
      data: { name },
    });
  });
}

/**
 * The custom type of that name, read locked for deletion: 404 when absent, 403 when built in.
 * The caller checks that no strategy uses it, then calls `writeStrategyTypeDeletion`.
 */
export async function getDeletableStrategyType(tx: Transaction, name: string): Promise<StrategyDefinition> {
  const definition = await getStrategyDefinition(tx, name, { lock: 'exclusive' });
  assertEditable(definition);
  return definition;
}

export async function writeStrategyTypeDeletion(
  tx: Transaction,
  actor: Actor,
  definition: StrategyDefinition,
): Promise<void> {
  await deleteStrategyDefinition(tx, definition.name);
  recordEvent(tx, actor, {
    type: 'strategy-deleted',
    data: { name: definition.name },
    preData: eventData(customPart(definition)),
  });
}

/** Every strategy type, built-in ones first. */
export function allStrategyDefinitions(db: Queryable): Promise<StrategyDefinition[]> {
  return listStrategyDefinitions(db);
}

/** Creates or overwrites custom strategy types as an import lists them; built-in ones never change. */
export function writeCustomStrategyDefinitions(tx: Transaction, rows: CustomDefinition[]): Promise<void> {
  return upsertCustomStrategyDefinitions(tx, rows);
}

/** Deletes every custom strategy type (an import that replaces everything, once no strategy uses them). */
export function dropCustomStrategyDefinitions(tx: Transaction): Promise<string[]> {
  return deleteCustomStrategyDefinitions(tx);
}
