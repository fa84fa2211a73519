import type { Queryable, Transaction } from '../db/database.js';
import { NotFoundError } from '../http/errors.js';
import {
  deleteCustomStrategyDefinitions,
  findStrategyDefinition,
  listStrategyDefinitions,
  type StrategyDefinition,
  upsertCustomStrategyDefinitions,
} from './store.js';

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

export async function readStrategyDefinition(db: Queryable, name: string) {
  const definition = await findStrategyDefinition(db, name);
  if (!definition) throw new NotFoundError(`There is no strategy type "${name}".`);
  return describeDefinition(definition);
}

/** Every strategy type, built-in ones first. */
export function allStrategyDefinitions(db: Queryable): Promise<StrategyDefinition[]> {
  return listStrategyDefinitions(db);
}

/** Creates or overwrites custom strategy types as an import lists them; built-in ones never change. */
export function writeCustomStrategyDefinitions(
  tx: Transaction,
  rows: Omit<StrategyDefinition, 'builtIn'>[],
): Promise<void> {
  return upsertCustomStrategyDefinitions(tx, rows);
}

/** Deletes every custom strategy type (an import that replaces everything, once no strategy uses them). */
export function dropCustomStrategyDefinitions(tx: Transaction): Promise<string[]> {
  return deleteCustomStrategyDefinitions(tx);
}
