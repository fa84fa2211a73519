import type { Queryable } from '../../db/database.js';

/**
 * The foreign keys of the rows an import wrote for these features and strategies, checked in one
 * statement: the first reference that points at nothing, described, or null when all hold.
 */
export async function danglingReference(
  db: Queryable,
  features: readonly string[],
  strategyIds: readonly string[],
): Promise<string | null> {
  const { rows } = await db.query<{ problem: string }>(
    `SELECT problem FROM (
       SELECT format('the feature %s refers to no project %s', f.name, f.project) AS problem
         FROM features f
        WHERE f.name = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = f.project)
       UNION ALL
       SELECT format('a lifecycle stage of no feature %s', l.feature_name)
         FROM feature_lifecycles l
        WHERE l.feature_name = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM features f WHERE f.name = l.feature_name)
       UNION ALL
       SELECT format('the environment %s of the feature %s', fe.environment, fe.feature_name)
         FROM feature_environments fe
        WHERE fe.feature_name = ANY($1::text[])
          AND (NOT EXISTS (SELECT 1 FROM features f WHERE f.name = fe.feature_name)
               OR NOT EXISTS (SELECT 1 FROM environments e WHERE e.name = fe.environment))
       UNION ALL
       SELECT format('the strategy %s (%s) of the feature %s in %s', s.id, s.strategy_name, s.feature_name, s.environment)
         FROM feature_strategies s
        WHERE s.feature_name = ANY($1::text[])
          AND (NOT EXISTS (SELECT 1 FROM features f WHERE f.name = s.feature_name)
               OR NOT EXISTS (SELECT 1 FROM environments e WHERE e.name = s.environment)
               OR NOT EXISTS (SELECT 1 FROM strategies d WHERE d.name = s.strategy_name))
       UNION ALL
       SELECT format('the segment %s of the strategy %s', ss.segment_id, ss.feature_strategy_id)
         FROM feature_strategy_segments ss
        WHERE ss.feature_strategy_id = ANY($2::text[])
          AND (NOT EXISTS (SELECT 1 FROM feature_strategies s WHERE s.id = ss.feature_strategy_id)
               OR NOT EXISTS (SELECT 1 FROM segments g WHERE g.id = ss.segment_id))
       UNION ALL
       SELECT format('the tag %s:%s of the feature %s', t.tag_type, t.tag_value, t.feature_name)
         FROM feature_tags t
        WHERE t.feature_name = ANY($1::text[])
          AND (NOT EXISTS (SELECT 1 FROM features f WHERE f.name = t.feature_name)
               OR NOT EXISTS (SELECT 1 FROM tags g WHERE g.type = t.tag_type AND g.value = t.tag_value))
       UNION ALL
       SELECT format('the dependency of the feature %s on %s', d.child, d.parent)
         FROM feature_dependencies d
        WHERE d.child = ANY($1::text[])
          AND (NOT EXISTS (SELECT 1 FROM features f WHERE f.name = d.child)
               OR NOT EXISTS (SELECT 1 FROM features f WHERE f.name = d.parent))
     ) AS problems
     LIMIT 1`,
    [features, strategyIds],
  );
  return rows[0]?.problem ?? null;
}
