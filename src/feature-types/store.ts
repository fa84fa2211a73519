import type { Queryable } from '../db/database.js';

export interface FeatureType {
  id: string;
  name: string;
  description: string | null;
  lifetimeDays: number | null;
}

const SELECT = 'SELECT id, name, description, lifetime_days AS "lifetimeDays" FROM feature_types';

export async function listFeatureTypes(db: Queryable): Promise<FeatureType[]> {
  const { rows } = await db.query<FeatureType>(`${SELECT} ORDER BY lifetime_days DESC NULLS LAST, id`);
  return rows;
}

export async function findFeatureType(db: Queryable, id: string): Promise<FeatureType | null> {
  const { rows } = await db.query<FeatureType>(`${SELECT} WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function setLifetime(db: Queryable, id: string, days: number | null): Promise<void> {
  await db.query('UPDATE feature_types SET lifetime_days = $2 WHERE id = $1', [id, days]);
}
