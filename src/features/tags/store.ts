import type { Queryable } from '../../db/database.js';
import { jsonChunks } from '../../db/json-chunks.js';
import { type ReadOptions, withRowLock } from '../../db/lock.js';
import type { Tag } from '../../tags/types.js';

/** The tags of the given features, in the order they were added. */
export async function tagsOfFeatureList(
  db: Queryable,
  featureNames: string[],
): Promise<(Tag & { featureName: string })[]> {
  if (featureNames.length === 0) return [];
  const { rows } = await db.query<{ feature_name: string; tag_type: string; tag_value: string }>(
    `SELECT feature_name, tag_type, tag_value FROM feature_tags WHERE feature_name = ANY($1::text[])
      ORDER BY feature_name, created_at, tag_type, tag_value`,
    [featureNames],
  );
  return rows.map((r) => ({ featureName: r.feature_name, type: r.tag_type, value: r.tag_value }));
}

export async function featureHasTag(
  db: Queryable,
  featureName: string,
  tag: Tag,
  { lock }: ReadOptions = {},
): Promise<boolean> {
  const { rows } = await db.query(
    withRowLock(
      'SELECT 1 FROM feature_tags WHERE feature_name = $1 AND tag_type = $2 AND tag_value = $3',
      lock,
    ),
    [featureName, tag.type, tag.value],
  );
  return rows.length > 0;
}

export async function insertFeatureTag(
  db: Queryable,
  featureName: string,
  tag: Tag,
  userId: number | null,
): Promise<void> {
  await db.query(
    'INSERT INTO feature_tags (feature_name, tag_type, tag_value, created_by_user_id) VALUES ($1, $2, $3, $4)',
    [featureName, tag.type, tag.value, userId],
  );
}

export async function deleteFeatureTag(db: Queryable, featureName: string, tag: Tag): Promise<void> {
  await db.query('DELETE FROM feature_tags WHERE feature_name = $1 AND tag_type = $2 AND tag_value = $3', [
    featureName,
    tag.type,
    tag.value,
  ]);
}

/** Tags those features; answers the pairs that were not there before, in key order. */
export async function insertFeatureTagPairs(
  db: Queryable,
  pairs: readonly (Tag & { featureName: string })[],
  userId: number | null,
): Promise<(Tag & { featureName: string })[]> {
  if (pairs.length === 0) return [];
  const { rows } = await db.query<{ feature_name: string; tag_type: string; tag_value: string }>(
    `INSERT INTO feature_tags (feature_name, tag_type, tag_value, created_by_user_id)
     SELECT f, t, v, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS p(f, t, v) ORDER BY f, t, v
     ON CONFLICT DO NOTHING
     RETURNING feature_name, tag_type, tag_value`,
    [pairs.map((p) => p.featureName), pairs.map((p) => p.type), pairs.map((p) => p.value), userId],
  );
  return rows.map(toPair).sort(byKey);
}

/** Takes the tags off those features; answers the pairs that were there, in key order. */
export async function deleteFeatureTagPairs(
  db: Queryable,
  pairs: readonly (Tag & { featureName: string })[],
): Promise<(Tag & { featureName: string })[]> {
  if (pairs.length === 0) return [];
  const { rows } = await db.query<{ feature_name: string; tag_type: string; tag_value: string }>(
    `DELETE FROM feature_tags
      WHERE (feature_name, tag_type, tag_value) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))
     RETURNING feature_name, tag_type, tag_value`,
    [pairs.map((p) => p.featureName), pairs.map((p) => p.type), pairs.map((p) => p.value)],
  );
  return rows.map(toPair).sort(byKey);
}

function toPair(r: { feature_name: string; tag_type: string; tag_value: string }) {
  return { featureName: r.feature_name, type: r.tag_type, value: r.tag_value };
}

function byKey(a: Tag & { featureName: string }, b: Tag & { featureName: string }): number {
  return (
    a.featureName.localeCompare(b.featureName) ||
    a.type.localeCompare(b.type) ||
    a.value.localeCompare(b.value)
  );
}

export interface FeatureTagRow {
  featureName: string;
  type: string;
  value: string;
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
