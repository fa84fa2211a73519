import type { Queryable } from '../db/database.js';

export interface Feature {
  name: string;
  project: string;
  description: string | null;
  type: string;
  stale: boolean;
  impressionData: boolean;
  archivedAt: Date | null;
  createdAt: Date;
  lastSeenAt: Date | null;
}

interface FeatureRecord {
  name: string;
  project: string;
  description: string | null;
  type: string;
  stale: boolean;
  impression_data: boolean;
  archived_at: Date | null;
  created_at: Date;
  last_seen_at: Date | null;
}

const COLUMNS =
  'name, project, description, type, stale, impression_data, archived_at, created_at, last_seen_at';

function toFeature(r: FeatureRecord): Feature {
  return {
    name: r.name,
    project: r.project,
    description: r.description,
    type: r.type,
    stale: r.stale,
    impressionData: r.impression_data,
    archivedAt: r.archived_at,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
  };
}

/** The feature of that name in any project, archived or not. */
export async function findFeature(db: Queryable, name: string): Promise<Feature | null> {
  const { rows } = await db.query<FeatureRecord>(`SELECT ${COLUMNS} FROM features WHERE name = $1`, [name]);
  return rows[0] ? toFeature(rows[0]) : null;
}

export async function listLiveFeatures(db: Queryable, project: string): Promise<Feature[]> {
  const { rows } = await db.query<FeatureRecord>(
    `SELECT ${COLUMNS} FROM features WHERE project = $1 AND archived_at IS NULL ORDER BY name`,
    [project],
  );
  return rows.map(toFeature);
}

export interface NewFeature {
  name: string;
  project: string;
  description: string | null;
  type: string;
  impressionData: boolean;
  createdByUserId: number | null;
}

/** Inserts the feature, attached (disabled) to every environment of its project. */
export async function insertFeature(db: Queryable, f: NewFeature): Promise<Feature> {
  const { rows } = await db.query<FeatureRecord>(
    `INSERT INTO features (name, project, description, type, impression_data, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [f.name, f.project, f.description, f.type, f.impressionData, f.createdByUserId],
  );
  await db.query(
    `INSERT INTO feature_environments (feature_name, environment)
     SELECT $1, environment_name FROM project_environments WHERE project_id = $2`,
    [f.name, f.project],
  );
  return toFeature(rows[0]!);
}

export interface FeatureEnvironment {
  featureName: string;
  name: string;
  type: string;
  enabled: boolean;
  sortOrder: number;
  variants: unknown[];
  lastSeenAt: Date | null;
}

/** The environments of the given features, in the environments' sort order. */
export async function environmentsOfFeatures(
  db: Queryable,
  featureNames: string[],
): Promise<FeatureEnvironment[]> {
  if (featureNames.length === 0) return [];
  const { rows } = await db.query<{
    feature_name: string;
    environment: string;
    type: string;
    enabled: boolean;
    sort_order: number;
    variants: unknown[];
    last_seen_at: Date | null;
  }>(
    `SELECT fe.feature_name, fe.environment, e.type, fe.enabled, e.sort_order, fe.variants, fe.last_seen_at
       FROM feature_environments fe JOIN environments e ON e.name = fe.environment
      WHERE fe.feature_name = ANY($1::text[])
      ORDER BY fe.feature_name, e.sort_order, e.name`,
    [featureNames],
  );
  return rows.map((r) => ({
    featureName: r.feature_name,
    name: r.environment,
    type: r.type,
    enabled: r.enabled,
    sortOrder: r.sort_order,
    variants: r.variants,
    lastSeenAt: r.last_seen_at,
  }));
}
