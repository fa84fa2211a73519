import type { Constraint } from '../../constraints/rules.js';
import type { Queryable } from '../../db/database.js';
import { jsonChunks } from '../../db/json-chunks.js';
import type { Variant } from '../variants/rules.js';

// Writes of many features at once (imports): a few statements per table, whatever the number of
// rows, each taking its rows as one JSON document of a bounded size (db/json-chunks.ts).

export interface FeatureRow {
  name: string;
  project: string;
  description: string | null;
  type: string;
  stale: boolean;
  impressionData: boolean;
  /** ISO 8601, or null for a live feature. */
  archivedAt: string | null;
  /** ISO 8601; null: now. Only a new feature takes it. */
  createdAt: string | null;
}

export interface FeatureEnvironmentRow {
  featureName: string;
  environment: string;
  enabled: boolean;
  variants: Variant[];
}

export interface StrategyRow {
  id: string;
  featureName: string;
  environment: string;
  name: string;
  title: string | null;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: Constraint[];
  variants: Variant[];
  sortOrder: number;
}

export interface FeatureTagRow {
  featureName: string;
  type: string;
  value: string;
}

/** Creates the features, or overwrites those that exist (their creation time stays). */
export async function upsertFeatureRows(db: Queryable, rows: FeatureRow[], userId: number | null) {
  if (rows.length === 0) return;
  for (const chunk of jsonChunks(
    rows.map((r) => ({
      name: r.name,
      project: r.project,
      description: r.description,
      type: r.type,
      stale: r.stale,
      impression_data: r.impressionData,
      archived_at: r.archivedAt,
      created_at: r.createdAt,
    })),
  )) {
    await db.query(
      `INSERT INTO features (name, project, description, type, stale, impression_data, archived_at, created_at,
                           created_by_user_id)
     SELECT r.name, r.project, r.description, r.type, r.stale, r.impression_data, r.archived_at,
            coalesce(r.created_at, now()), $2
       FROM jsonb_to_recordset($1::jsonb) AS r(name text, project text, description text, type text, stale boolean,
                                               impression_data boolean, archived_at timestamptz, created_at timestamptz)
     ON CONFLICT (name) DO UPDATE
       SET project = EXCLUDED.project, description = EXCLUDED.description, type = EXCLUDED.type,
           stale = EXCLUDED.stale, impression_data = EXCLUDED.impression_data, archived_at = EXCLUDED.archived_at`,
      [chunk, userId],
    );
  }
}

/** Attaches features to environments with the state given, or sets it where they are attached. */
export async function upsertFeatureEnvironmentRows(db: Queryable, rows: FeatureEnvironmentRow[]) {
  if (rows.length === 0) return;
  for (const chunk of jsonChunks(
    rows.map((r) => ({
      feature_name: r.featureName,
      environment: r.environment,
      enabled: r.enabled,
      variants: r.variants,
    })),
  )) {
    await db.query(
      `INSERT INTO feature_environments (feature_name, environment, enabled, variants)
     SELECT r.feature_name, r.environment, r.enabled, r.variants
       FROM jsonb_to_recordset($1::jsonb) AS r(feature_name text, environment text, enabled boolean, variants jsonb)
     ON CONFLICT (feature_name, environment) DO UPDATE SET enabled = EXCLUDED.enabled, variants = EXCLUDED.variants`,
      [chunk],
    );
  }
}

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

/** The segments of each strategy given become exactly those listed. */
export async function replaceStrategySegmentRows(
  db: Queryable,
  segments: ReadonlyMap<string, readonly number[]>,
) {
  if (segments.size === 0) return;
  await db.query('DELETE FROM feature_strategy_segments WHERE feature_strategy_id = ANY($1::text[])', [
    [...segments.keys()],
  ]);
  const pairs = [...segments].flatMap(([id, ids]) => ids.map((segment) => ({ id, segment })));
  if (pairs.length === 0) return;
  for (const chunk of jsonChunks(pairs)) {
    await db.query(
      `INSERT INTO feature_strategy_segments (feature_strategy_id, segment_id)
       SELECT r.id, r.segment FROM jsonb_to_recordset($1::jsonb) AS r(id text, segment integer)`,
      [chunk],
    );
  }
}

/** Tags the features; a tag a feature carries already stays as it was. */
export async function insertFeatureTagRows(db: Queryable, rows: FeatureTagRow[], userId: number | null) {
  if (rows.length === 0) return;
  for (const chunk of jsonChunks(
    rows.map((r) => ({ feature_name: r.featureName, type: r.type, value: r.value })),
  )) {
    await db.query(
      `INSERT INTO feature_tags (feature_name, tag_type, tag_value, created_by_user_id)
     SELECT r.feature_name, r.type, r.value, $2
       FROM jsonb_to_recordset($1::jsonb) AS r(feature_name text, type text, value text)
     ON CONFLICT DO NOTHING`,
      [chunk, userId],
    );
  }
}

/** Removes every tag of those features. */
export async function deleteTagsOfFeatures(db: Queryable, names: readonly string[]) {
  if (names.length === 0) return;
  await db.query('DELETE FROM feature_tags WHERE feature_name = ANY($1::text[])', [names]);
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

/** Deletes every feature, archived ones too, with everything hanging off them; answers their names. */
export async function deleteAllFeatures(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('DELETE FROM features RETURNING name');
  return rows.map((r) => r.name).sort();
}
