import type { Queryable } from '../db/database.js';
import { NotFoundError } from '../http/errors.js';
import { findStrategyDefinition, listStrategyDefinitions, type StrategyDefinition } from './store.js';

function describeDefinition(d: StrategyDefinition) {
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
