import type { Queryable } from '../db/database.js';

/** A strategy type (the `strategies` table): its name and the parameters it takes. */
export interface StrategyDefinition {
  name: string;
  title: string | null;
  description: string | null;
  parameters: { name: string; type: string; description: string; required: boolean }[];
  builtIn: boolean;
  deprecated: boolean;
}

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
): Promise<StrategyDefinition | null> {
  const { rows } = await db.query<DefinitionRecord>(
    `SELECT ${DEFINITION_COLUMNS} FROM strategies WHERE name = $1`,
    [name],
  );
  return rows[0] ? toDefinition(rows[0]) : null;
}
