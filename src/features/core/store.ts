import { type Queryable, type Transaction, transactionOf } from '../../db/database.js';
import { jsonChunks } from '../../db/json-chunks.js';
import { type ReadOptions, readRow, withRowLock } from '../../db/lock.js';

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

/** A feature's own row, as every read of the features table selects it. */
export interface FeatureRecord {
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

/** The key a transaction remembers a feature's row under. */
const rowKey = (name: string) => `features:${name}`;

/** Tells the transaction the row as it is, read locked another way (see `readRow`). */
export function rememberFeature(tx: Transaction, f: Feature): void {
  const { name, project, description, type, stale, impressionData, archivedAt, createdAt, lastSeenAt } = f;
  tx.remember(rowKey(name), {
    name,
    project,
    description,
    type,
    stale,
    impressionData,
    archivedAt,
    createdAt,
    lastSeenAt,
  });
}

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
export async function findFeature(
  db: Queryable,
  name: string,
  { lock }: ReadOptions = {},
): Promise<Feature | null> {
  return readRow(db, rowKey(name), lock, async () => {
    const { rows } = await db.query<FeatureRecord>(
      withRowLock(`SELECT ${COLUMNS} FROM features WHERE name = $1`, lock),
      [name],
    );
    return rows[0] ? toFeature(rows[0]) : null;
  });
}

export interface NewFeature {
  name: string;
  project: string;
  description: string | null;
  type: string;
  impressionData: boolean;
  createdByUserId: number | null;
}

/** Inserts the feature, in no environment yet and at no lifecycle stage yet (see ./writes.ts). */
export async function insertFeature(db: Queryable, f: NewFeature): Promise<Feature> {
  const { rows } = await db.query<FeatureRecord>(
    `INSERT INTO features (name, project, description, type, impression_data, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [f.name, f.project, f.description, f.type, f.impressionData, f.createdByUserId],
  );
  return toFeature(rows[0]!);
}

/**
 * The features of those names that exist, in any project, archived or not; by name, which is also
 * the order they are locked in, so two transactions locking lists cannot deadlock.
 */
export async function findFeatures(
  db: Queryable,
  names: string[],
  { lock }: ReadOptions = {},
): Promise<Feature[]> {
  if (names.length === 0) return [];
  const { rows } = await db.query<FeatureRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM features WHERE name = ANY($1::text[]) ORDER BY name`, lock),
    [names],
  );
  return rows.map(toFeature);
}

export interface FeatureMetadataUpdate {
  description: string | null;
  type: string;
  stale: boolean;
  impressionData: boolean;
}

const UPDATE_METADATA =
  'UPDATE features SET description = $2, type = $3, stale = $4, impression_data = $5 WHERE name = $1';

/**
 * Sets the metadata. On a row this transaction holds locked as it read it, the write is deferred:
 * the next change of the same row replaces it (see `Transaction.deferWrite`).
 */
export async function updateFeatureMetadata(
  db: Queryable,
  name: string,
  m: FeatureMetadataUpdate,
): Promise<Feature> {
  const params = [name, m.description, m.type, m.stale, m.impressionData];
  const tx = transactionOf(db);
  const known = tx?.recall<Feature>(rowKey(name));
  if (tx && known) {
    const { description, type, stale, impressionData } = m;
    const updated = { ...known, description, type, stale, impressionData };
    tx.deferWrite(`features.metadata:${name}`, UPDATE_METADATA, params);
    tx.remember(rowKey(name), updated);
    return updated;
  }
  const { rows } = await db.query<FeatureRecord>(`${UPDATE_METADATA} RETURNING ${COLUMNS}`, params);
  return toFeature(rows[0]!);
}

/** Sets `stale` on those features; answers the ones whose value changed. */
export async function setFeaturesStale(db: Queryable, names: string[], stale: boolean): Promise<Feature[]> {
  if (names.length === 0) return [];
  const { rows } = await db.query<FeatureRecord>(
    `UPDATE features SET stale = $2 WHERE name = ANY($1::text[]) AND stale <> $2 RETURNING ${COLUMNS}`,
    [names, stale],
  );
  return rows.map(toFeature).sort((a, b) => a.name.localeCompare(b.name));
}

/** Archives those of the features that are live; answers the ones archived now. */
export async function archiveFeatures(db: Queryable, names: string[]): Promise<Feature[]> {
  if (names.length === 0) return [];
  const { rows } = await db.query<FeatureRecord>(
    `UPDATE features SET archived_at = now() WHERE name = ANY($1::text[]) AND archived_at IS NULL
     RETURNING ${COLUMNS}`,
    [names],
  );
  return rows.map(toFeature).sort((a, b) => a.name.localeCompare(b.name));
}

/** Brings archived features back (their rows only); answers the ones revived now. */
export async function reviveFeatures(db: Queryable, names: string[]): Promise<Feature[]> {
  if (names.length === 0) return [];
  const { rows } = await db.query<FeatureRecord>(
    `UPDATE features SET archived_at = NULL WHERE name = ANY($1::text[]) AND archived_at IS NOT NULL
     RETURNING ${COLUMNS}`,
    [names],
  );
  return rows.map(toFeature).sort((a, b) => a.name.localeCompare(b.name));
}

/** Deletes features for good, with everything hanging off them. */
export async function deleteFeatures(db: Queryable, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await db.query('DELETE FROM features WHERE name = ANY($1::text[])', [names]);
}

/** Archived features, newest first: of one project, or of all when `project` is undefined. */
export async function listArchivedFeatures(db: Queryable, project?: string): Promise<Feature[]> {
  const { rows } = await db.query<FeatureRecord>(
    `SELECT ${COLUMNS} FROM features
      WHERE archived_at IS NOT NULL AND ($1::text IS NULL OR project = $1)
      ORDER BY archived_at DESC, name`,
    [project ?? null],
  );
  return rows.map(toFeature);
}

export async function setFeatureProject(db: Queryable, name: string, project: string): Promise<Feature> {
  const { rows } = await db.query<FeatureRecord>(
    `UPDATE features SET project = $2 WHERE name = $1 RETURNING ${COLUMNS}`,
    [name, project],
  );
  return toFeature(rows[0]!);
}

/** The environments a feature is attached to, by name. */
export async function featureEnvironmentNames(db: Queryable, name: string): Promise<string[]> {
  const { rows } = await db.query<{ environment: string }>(
    'SELECT environment FROM feature_environments WHERE feature_name = $1 ORDER BY environment',
    [name],
  );
  return rows.map((r) => r.environment);
}

/** Every feature of the project, archived ones too, by name. */
export async function findFeaturesOfProject(
  db: Queryable,
  project: string,
  { lock }: ReadOptions = {},
): Promise<Feature[]> {
  const { rows } = await db.query<FeatureRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM features WHERE project = $1 ORDER BY name`, lock),
    [project],
  );
  return rows.map(toFeature);
}

/** SDKs reported these features: their last-seen time becomes now (rows locked by name). */
export async function setFeaturesSeenNow(db: Queryable, names: readonly string[]): Promise<void> {
  await db.query(
    `UPDATE features SET last_seen_at = now()
      WHERE name IN (SELECT name FROM features WHERE name = ANY($1::text[]) ORDER BY name FOR NO KEY UPDATE)`,
    [names],
  );
}

// Writes of many features at once (imports): one statement per chunk of rows, each chunk one JSON
// document of a bounded size (db/json-chunks.ts).

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

/** A feature `upsertFeatureRows` wrote: times as stored, the transaction's, and if it was inserted. */
export type WrittenFeatureRow = Pick<Feature, 'name' | 'createdAt' | 'archivedAt'> & Written;
type Written = { writtenAt: Date; created: boolean };

/** Creates the features, or overwrites those that exist (their creation time stays). */
export async function upsertFeatureRows(
  db: Queryable,
  rows: FeatureRow[],
  userId: number | null,
): Promise<WrittenFeatureRow[]> {
  const written: WrittenFeatureRow[] = [];
  if (rows.length === 0) return written;
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
    const { rows: stored } = await db.query<WrittenFeatureRow>(
      `INSERT INTO features (name, project, description, type, stale, impression_data, archived_at, created_at,
                           created_by_user_id)
     SELECT r.name, r.project, r.description, r.type, r.stale, r.impression_data, r.archived_at,
            coalesce(r.created_at, now()), $2
       FROM jsonb_to_recordset($1::jsonb) AS r(name text, project text, description text, type text, stale boolean,
                                               impression_data boolean, archived_at timestamptz, created_at timestamptz)
     ON CONFLICT (name) DO UPDATE
       SET project = EXCLUDED.project, description = EXCLUDED.description, type = EXCLUDED.type,
           stale = EXCLUDED.stale, impression_data = EXCLUDED.impression_data, archived_at = EXCLUDED.archived_at
     RETURNING name, created_at AS "createdAt", archived_at AS "archivedAt", now() AS "writtenAt", xmax = 0 AS created`,
      [chunk, userId],
    );
    written.push(...stored);
  }
  return written;
}

/** Deletes every feature, archived ones too, with everything hanging off them; answers their names. */
export async function deleteAllFeatures(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('DELETE FROM features RETURNING name');
  return rows.map((r) => r.name).sort();
}
