import type { Queryable } from '../db/database.js';

/** Marks the feature a favorite of the user; false when it already was. */
export async function insertFavoriteFeature(db: Queryable, userId: number, featureName: string) {
  const { rowCount } = await db.query(
    'INSERT INTO favorite_features (user_id, feature_name) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [userId, featureName],
  );
  return rowCount > 0;
}

/** False when the feature was not a favorite of the user. */
export async function deleteFavoriteFeature(db: Queryable, userId: number, featureName: string) {
  const { rowCount } = await db.query(
    'DELETE FROM favorite_features WHERE user_id = $1 AND feature_name = $2',
    [userId, featureName],
  );
  return rowCount > 0;
}

export async function insertFavoriteProject(db: Queryable, userId: number, project: string) {
  const { rowCount } = await db.query(
    'INSERT INTO favorite_projects (user_id, project) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [userId, project],
  );
  return rowCount > 0;
}

export async function deleteFavoriteProject(db: Queryable, userId: number, project: string) {
  const { rowCount } = await db.query('DELETE FROM favorite_projects WHERE user_id = $1 AND project = $2', [
    userId,
    project,
  ]);
  return rowCount > 0;
}

/** The user's favorite features, of one project or of all. */
export async function listFavoriteFeatures(
  db: Queryable,
  userId: number,
  project?: string,
): Promise<string[]> {
  const { rows } = await db.query<{ feature_name: string }>(
    `SELECT ff.feature_name FROM favorite_features ff
      WHERE ff.user_id = $1
        AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM features f WHERE f.name = ff.feature_name AND f.project = $2))`,
    [userId, project ?? null],
  );
  return rows.map((r) => r.feature_name);
}

export async function listFavoriteProjects(db: Queryable, userId: number): Promise<string[]> {
  const { rows } = await db.query<{ project: string }>(
    'SELECT project FROM favorite_projects WHERE user_id = $1',
    [userId],
  );
  return rows.map((r) => r.project);
}
