import type { Constraint } from '../../constraints/rules.js';
import { type Queryable, type Transaction, transactionOf } from '../../db/database.js';
import { jsonChunks } from '../../db/json-chunks.js';
import { asStoredJson } from '../../db/jsonb.js';
import { type ReadOptions, readRow, withRowLock } from '../../db/lock.js';
import type { Variant } from '../variants/rules.js';
import type { StrategySettings } from './settings.js';

/** A flag's strategy in one environment: a strategy's settings where they apply. */
export interface FeatureStrategy extends StrategySettings {
  id: string;
  featureName: string;
  environment: string;
  sortOrder: number;
  createdAt: Date;
}

interface StrategyRecord {
  id: string;
  feature_name: string;
  environment: string;
  strategy_name: string;
  title: string | null;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: Constraint[];
  variants: Variant[];
  segments: number[] | null;
  sort_order: number;
  created_at: Date;
}

export function toStrategy(r: StrategyRecord): FeatureStrategy {
  return {
    id: r.id,
    featureName: r.feature_name,
    environment: r.environment,
    name: r.strategy_name,
    title: r.title,
    disabled: r.disabled,
    parameters: r.parameters,
    constraints: r.constraints,
    variants: r.variants,
    segments: r.segments ?? [],
    sortOrder: r.sort_order,
    createdAt: r.created_at,
  };
}

export const STRATEGY_SELECT = `
  SELECT s.id, s.feature_name, s.environment, s.strategy_name, s.title, s.disabled,
         s.parameters, s.constraints, s.variants, s.sort_order, s.created_at,
         (SELECT array_agg(fss.segment_id ORDER BY fss.segment_id) FROM feature_strategy_segments fss
           WHERE fss.feature_strategy_id = s.id) AS segments
    FROM feature_strategies s`;

type LocatedStrategy = FeatureStrategy & { project: string; archived: boolean };

/** The key a transaction remembers a strategy under. */
const rowKey = (id: string) => `feature_strategies:${id}`;

/** Tells the transaction the strategy as it is, read locked another way (see `readRow`). */
export function rememberStrategy(tx: Transaction, strategy: LocatedStrategy): void {
  tx.remember(rowKey(strategy.id), strategy);
}

/**
 * A strategy with where it lives: its feature's project and whether that feature is archived.
 * A lock is taken on the row of the strategy's feature environment, so concurrent changes to that
 * environment's strategies happen one after the other.
 */
export async function findStrategy(
  db: Queryable,
  id: string,
  { lock }: ReadOptions = {},
): Promise<LocatedStrategy | null> {
  return readRow(db, rowKey(id), lock, async () => {
    const { rows } = await db.query<StrategyRecord & { project: string; archived: boolean }>(
      withRowLock(
        `SELECT q.*, f.project, f.archived_at IS NOT NULL AS archived
           FROM (${STRATEGY_SELECT} WHERE s.id = $1) q
           JOIN features f ON f.name = q.feature_name
           JOIN feature_environments fe ON fe.feature_name = q.feature_name AND fe.environment = q.environment`,
        lock,
        'fe',
      ),
      [id],
    );
    const row = rows[0];
    return row ? { ...toStrategy(row), project: row.project, archived: row.archived } : null;
  });
}

/** The strategies of one feature in one environment, in evaluation order. */
export async function strategiesOf(db: Queryable, featureName: string, environment: string) {
  const { rows } = await db.query<StrategyRecord>(
    `${STRATEGY_SELECT} WHERE s.feature_name = $1 AND s.environment = $2
      ORDER BY s.sort_order, s.created_at, s.id`,
    [featureName, environment],
  );
  return rows.map(toStrategy);
}

export interface StrategyConfig {
  name: string;
  title: string | null;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: Constraint[];
  variants: Variant[];
}

/** The configuration's columns as statements take them ($n … $n+5): name, title, disabled, then JSON. */
function configParams(s: StrategyConfig): unknown[] {
  return [
    s.name,
    s.title,
    s.disabled,
    JSON.stringify(s.parameters),
    JSON.stringify(s.constraints),
    JSON.stringify(s.variants),
  ];
}

/** The configuration as a read of the row gives it back (JSON in jsonb's member order). */
export function storedConfig(s: StrategyConfig): StrategyConfig {
  return {
    name: s.name,
    title: s.title,
    disabled: s.disabled,
    parameters: asStoredJson(s.parameters),
    constraints: asStoredJson(s.constraints),
    variants: asStoredJson(s.variants),
  };
}

/**
 * Inserts the strategy, last unless a position is given (or beside the last, when that one is at
 * the highest position there is); returns its position and creation time.
 */
export async function insertStrategy(
  db: Queryable,
  s: StrategyConfig & { id: string; featureName: string; environment: string; sortOrder: number | null },
): Promise<{ sortOrder: number; createdAt: Date }> {
  const { rows } = await db.query<{ sort_order: number; created_at: Date }>(
    `INSERT INTO feature_strategies
       (id, feature_name, environment, strategy_name, title, disabled, parameters, constraints, variants, sort_order)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb,
             LEAST(COALESCE($10, (SELECT max(sort_order)::bigint + 1 FROM feature_strategies
                                   WHERE feature_name = $2 AND environment = $3), 0), 2147483647))
     RETURNING sort_order, created_at`,
    [s.id, s.featureName, s.environment, ...configParams(s), s.sortOrder],
  );
  return { sortOrder: rows[0]!.sort_order, createdAt: rows[0]!.created_at };
}

const UPDATE_STRATEGY = `UPDATE feature_strategies
    SET strategy_name = $2, title = $3, disabled = $4, parameters = $5::jsonb, constraints = $6::jsonb,
        variants = $7::jsonb
  WHERE id = $1`;

/**
 * Sets the configuration. On a strategy this transaction holds locked as it read it, the write is
 * deferred: the next change of the same strategy replaces it (see `Transaction.deferWrite`).
 */
export async function updateStrategy(db: Queryable, id: string, s: StrategyConfig): Promise<void> {
  const params = [id, ...configParams(s)];
  const tx = transactionOf(db);
  const known = tx?.recall<LocatedStrategy>(rowKey(id));
  if (!tx || !known) {
    await db.query(UPDATE_STRATEGY, params);
    return;
  }
  tx.deferWrite(rowKey(id), UPDATE_STRATEGY, params);
  tx.remember(rowKey(id), { ...known, ...storedConfig(s) });
}

export async function deleteStrategy(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM feature_strategies WHERE id = $1', [id]);
}

export async function setSortOrders(db: Queryable, order: readonly { id: string; sortOrder: number }[]) {
  await db.query(
    `UPDATE feature_strategies s SET sort_order = o.sort_order
       FROM unnest($1::text[], $2::int[]) AS o(id, sort_order)
      WHERE s.id = o.id`,
    [order.map((o) => o.id), order.map((o) => o.sortOrder)],
  );
}

/** Deletes the strategies every feature of the project has in the environment. */
export async function deleteProjectStrategiesIn(db: Queryable, project: string, environment: string) {
  await db.query(
    `DELETE FROM feature_strategies
      WHERE environment = $2 AND feature_name IN (SELECT name FROM features WHERE project = $1)`,
    [project, environment],
  );
}

// Writes of many strategies at once (imports): a few statements whatever the number of rows, each
// taking its rows as one JSON document of a bounded size (db/json-chunks.ts).

/** A strategy as an import writes it: its segments are written apart, its creation time is now. */
export type StrategyRow = Omit<FeatureStrategy, 'segments' | 'createdAt'>;

/** Inserts the strategies, or replaces the configuration and position of those that exist. */
export async function upsertStrategyRows(db: Queryable, rows: StrategyRow[]) {
  if (rows.length === 0) return;
  for (const chunk of jsonChunks(
    rows.map((r) => ({
      id: r.id,
      feature_name: r.featureName,
      environment: r.environment,
      strategy_name: r.name,
      title: r.title,
      disabled: r.disabled,
      parameters: r.parameters,
      constraints: r.constraints,
      variants: r.variants,
      sort_order: r.sortOrder,
    })),
  )) {
    await db.query(
      `INSERT INTO feature_strategies
       (id, feature_name, environment, strategy_name, title, disabled, parameters, constraints, variants, sort_order)
     SELECT r.id, r.feature_name, r.environment, r.strategy_name, r.title, r.disabled, r.parameters, r.constraints,
            r.variants, r.sort_order
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, feature_name text, environment text, strategy_name text,
                                               title text, disabled boolean, parameters jsonb, constraints jsonb,
                                               variants jsonb, sort_order integer)
     ON CONFLICT (id) DO UPDATE
       SET strategy_name = EXCLUDED.strategy_name, title = EXCLUDED.title, disabled = EXCLUDED.disabled,
           parameters = EXCLUDED.parameters, constraints = EXCLUDED.constraints, variants = EXCLUDED.variants,
           sort_order = EXCLUDED.sort_order`,
      [chunk],
    );
  }
}

/** Removes the strategies of those features in one environment; answers what was removed. */
export async function deleteStrategiesIn(db: Queryable, names: readonly string[], environment: string) {
  if (names.length === 0) return [];
  const { rows } = await db.query<{ id: string; feature_name: string }>(
    `DELETE FROM feature_strategies WHERE feature_name = ANY($1::text[]) AND environment = $2
     RETURNING id, feature_name`,
    [names, environment],
  );
  return rows.map((r) => ({ id: r.id, featureName: r.feature_name }));
}

export interface StrategyPlace {
  id: string;
  featureName: string;
  environment: string;
  project: string;
  segments: number[];
}

/** Where each of those strategies lives (its feature, environment and project), with its segments. */
export async function findStrategyPlaces(db: Queryable, ids: readonly string[]): Promise<StrategyPlace[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{
    id: string;
    feature_name: string;
    environment: string;
    project: string;
    segments: number[] | null;
  }>(
    `SELECT s.id, s.feature_name, s.environment, f.project,
            (SELECT array_agg(fss.segment_id ORDER BY fss.segment_id) FROM feature_strategy_segments fss
              WHERE fss.feature_strategy_id = s.id) AS segments
       FROM feature_strategies s JOIN features f ON f.name = s.feature_name
      WHERE s.id = ANY($1::text[])`,
    [ids],
  );
  return rows.map((r) => ({
    id: r.id,
    featureName: r.feature_name,
    environment: r.environment,
    project: r.project,
    segments: r.segments ?? [],
  }));
}
