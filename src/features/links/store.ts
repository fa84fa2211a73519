import type { Queryable } from '../../db/database.js';
import { type ReadOptions, withRowLock } from '../../db/lock.js';

export interface FeatureLink {
  id: string;
  featureName: string;
  url: string;
  title: string | null;
}

interface LinkRecord {
  id: string;
  feature_name: string;
  url: string;
  title: string | null;
}

const toLink = (r: LinkRecord): FeatureLink => ({
  id: r.id,
  featureName: r.feature_name,
  url: r.url,
  title: r.title,
});

export async function findLink(
  db: Queryable,
  id: string,
  { lock }: ReadOptions = {},
): Promise<FeatureLink | null> {
  const { rows } = await db.query<LinkRecord>(
    withRowLock('SELECT id, feature_name, url, title FROM feature_links WHERE id = $1', lock),
    [id],
  );
  return rows[0] ? toLink(rows[0]) : null;
}

export async function countLinks(db: Queryable, featureName: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM feature_links WHERE feature_name = $1',
    [featureName],
  );
  return rows[0]!.n;
}

export async function insertLink(db: Queryable, link: FeatureLink): Promise<void> {
  await db.query('INSERT INTO feature_links (id, feature_name, url, title) VALUES ($1, $2, $3, $4)', [
    link.id,
    link.featureName,
    link.url,
    link.title,
  ]);
}

export async function updateLink(
  db: Queryable,
  id: string,
  url: string,
  title: string | null,
): Promise<void> {
  await db.query('UPDATE feature_links SET url = $2, title = $3 WHERE id = $1', [id, url, title]);
}

export async function deleteLink(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM feature_links WHERE id = $1', [id]);
}
