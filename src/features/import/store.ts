import type { Queryable } from '../../db/database.js';

/** Everything the rows of an import refer to, each key once. */
export interface References {
  projects: string[];
  environments: string[];
  strategyTypes: string[];
  segments: number[];
  tags: { type: string; value: string }[];
  /** Features referred to besides those the import itself wrote. */
  features: string[];
  /** Strategies given segments besides those the import itself wrote. */
  strategies: string[];
}

/**
 * The first of those references that points at nothing, described, or null when all hold: the
 * foreign keys of an import's rows, checked in one statement, one lookup per key referred to.
 */
export async function missingReference(db: Queryable, r: References): Promise<string | null> {
  const { rows } = await db.query<{ missing: string }>(
    `SELECT missing FROM (
       SELECT 'the project ' || x AS missing FROM unnest($1::text[]) x
        WHERE NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = x)
       UNION ALL
       SELECT 'the environment ' || x FROM unnest($2::text[]) x
        WHERE NOT EXISTS (SELECT 1 FROM environments e WHERE e.name = x)
       UNION ALL
       SELECT 'the strategy type ' || x FROM unnest($3::text[]) x
        WHERE NOT EXISTS (SELECT 1 FROM strategies s WHERE s.name = x)
       UNION ALL
       SELECT 'the segment ' || x FROM unnest($4::int[]) x
        WHERE NOT EXISTS (SELECT 1 FROM segments s WHERE s.id = x)
       UNION ALL
       SELECT format('the tag %s:%s', t.type, t.value) FROM unnest($5::text[], $6::text[]) AS t(type, value)
        WHERE NOT EXISTS (SELECT 1 FROM tags g WHERE g.type = t.type AND g.value = t.value)
       UNION ALL
       SELECT 'the feature ' || x FROM unnest($7::text[]) x
        WHERE NOT EXISTS (SELECT 1 FROM features f WHERE f.name = x)
       UNION ALL
       SELECT 'the strategy ' || x FROM unnest($8::text[]) x
        WHERE NOT EXISTS (SELECT 1 FROM feature_strategies s WHERE s.id = x)
     ) AS references_missing
     LIMIT 1`,
    [
      r.projects,
      r.environments,
      r.strategyTypes,
      r.segments,
      r.tags.map((t) => t.type),
      r.tags.map((t) => t.value),
      r.features,
      r.strategies,
    ],
  );
  return rows[0]?.missing ?? null;
}
