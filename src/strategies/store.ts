import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { StrategyDefinition } from './types.js';

interface DefinitionRecord {
  name: string;
  title: string | null;
  description: string | null;
  parameters: StrategyDefinition['parameters'];
  built_in: boolean;
  deprecated: boolean;
}

const DEFINITION_COLUMNS = 'name, title, description, parameters, built_in, deprecated';

function toDefinition(r: DefinitionRecord): StrategyDefinition {
  return {
    name: r.name,
    title: r.title,
    description: r.description,
    parameters: r.parameters,
    builtIn: r.built_in,
    deprecated: r.deprecated,
  };
}

export async function listStrategyDefinitions(db: Queryable): Promise<StrategyDefinition[]> {
  const { rows } = await db.query<DefinitionRecord>(
    `SELECT ${DEFINITION_COLUMNS} FROM strategies ORDER BY sort_order, name`,
  );
  return rows.map(toDefinition);
}

export async function findStrategyDefinition(
  db: Queryable,
  name: string,
  { lock }: ReadOptions = {},
): Promise<StrategyDefinition | null> {
  const { rows } = await db.query<DefinitionRecord>(
    withRowLock(`SELECT ${DEFINITION_COLUMNS} FROM strategies WHERE name = $1`, lock),
    [name],
  );
  return rows[0] ? toDefinition(rows[0]) : null;
}

export type CustomDefinition = Omit<StrategyDefinition, 'builtIn'>;

/** A new custom strategy type, listed after every other. */
export async function insertCustomStrategyDefinition(db: Queryable, d: CustomDefinition): Promise<void> {
  await db.query(
    `INSERT INTO strategies (name, title, description, parameters, deprecated, built_in, sort_order)
     VALUES ($1, $2, $3, $4::jsonb, $5, false, (SELECT coalesce(max(sort_order), 0) + 1 FROM strategies))`,
    [d.name, d.title, d.description, JSON.stringify(d.parameters), d.deprecated],
  );
}

export async function updateStrategyDefinition(db: Queryable, d: CustomDefinition): Promise<void> {
  await db.query(
    `UPDATE strategies SET title = $2, description = $3, parameters = $4::jsonb, deprecated = $5
     WHERE name = $1`,
    [d.name, d.title, d.description, JSON.stringify(d.parameters), d.deprecated],
  );
}

export async function deleteStrategyDefinition(db: Queryable, name: string): Promise<void> {
  await db.query('DELETE FROM strategies WHERE name = $1', [name]);
}

/** Creates custom strategy types, or overwrites those that exist (never a built-in one). */
export async function upsertCustomStrategyDefinitions(
  db: Queryable,
  rows: Omit<StrategyDefinition, 'builtIn'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO strategies (name, title, description, parameters, deprecated, built_in, sort_order)
     SELECT r.name, r.title, r.description, r.parameters, r.deprecated, false,
            (SELECT coalesce(max(sort_order), 0) + 1 FROM strategies)
       FROM jsonb_to_recordset($1::jsonb) AS r(name text, title text, description text, parameters jsonb,
                                               deprecated boolean)
     ON CONFLICT (name) DO UPDATE
       SET title = EXCLUDED.title, description = EXCLUDED.description, parameters = EXCLUDED.parameters,
           deprecated = EXCLUDED.deprecated
     WHERE NOT strategies.built_in`,
    [JSON.stringify(rows)],
  );
}

/** Deletes every custom strategy type (none may be in use); answers their names. */
export async function deleteCustomStrategyDefinitions(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    'DELETE FROM strategies WHERE NOT built_in RETURNING name',
  );
  return rows.map((r) => r.name).sort();
}
