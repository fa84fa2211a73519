import type { Queryable } from '../../db/database.js';
import type { Dependency } from '../../read-model/queries.js';

export interface DependencyRow extends Dependency {
  child: string;
}

interface Row {
  child: string;
  parent: string;
  enabled: boolean;
  variants: string[];
}

const toRow = (r: Row): DependencyRow => ({
  child: r.child,
  feature: r.parent,
  enabled: r.enabled,
  variants: r.variants,
});

/** The dependencies of those children (their parents). */
export async function dependenciesOf(db: Queryable, children: string[]): Promise<DependencyRow[]> {
  if (children.length === 0) return [];
  const { rows } = await db.query<Row>(
    `SELECT child, parent, enabled, variants FROM feature_dependencies
      WHERE child = ANY($1::text[]) ORDER BY child`,
    [children],
  );
  return rows.map(toRow);
}

/** The dependencies on those parents (their children). */
export async function dependenciesOn(db: Queryable, parents: string[]): Promise<DependencyRow[]> {
  if (parents.length === 0) return [];
  const { rows } = await db.query<Row>(
    `SELECT child, parent, enabled, variants FROM feature_dependencies
      WHERE parent = ANY($1::text[]) ORDER BY parent, child`,
    [parents],
  );
  return rows.map(toRow);
}

/** Sets the child's one parent, replacing the one it had. */
export async function setDependencies(db: Queryable, rows: DependencyRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO feature_dependencies (child, parent, enabled, variants)
     SELECT child, parent, enabled, variants
       FROM jsonb_to_recordset($1::jsonb) AS d(child text, parent text, enabled boolean, variants jsonb)
     ON CONFLICT (child) DO UPDATE
        SET parent = excluded.parent, enabled = excluded.enabled, variants = excluded.variants,
            created_at = now()`,
    [
      JSON.stringify(
        rows.map((r) => ({ child: r.child, parent: r.feature, enabled: r.enabled, variants: r.variants })),
      ),
    ],
  );
}

/** Removes the child's dependency on that parent; whether there was one. */
export async function deleteDependency(db: Queryable, child: string, parent: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM feature_dependencies WHERE child = $1 AND parent = $2', [
    child,
    parent,
  ]);
  return (rowCount ?? 0) > 0;
}

/** Removes every dependency of those children; answers the children that had one. */
export async function deleteDependenciesOf(db: Queryable, children: string[]): Promise<string[]> {
  if (children.length === 0) return [];
  const { rows } = await db.query<{ child: string }>(
    'DELETE FROM feature_dependencies WHERE child = ANY($1::text[]) RETURNING child',
    [children],
  );
  return rows.map((r) => r.child).sort();
}
