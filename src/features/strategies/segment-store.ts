import type { Queryable } from '../../db/database.js';
import { jsonChunks } from '../../db/json-chunks.js';

// The segments each strategy uses (feature_strategy_segments): every write of that table.

/** The strategy uses exactly those segments from now on. */
export async function setStrategySegments(db: Queryable, id: string, segmentIds: readonly number[]) {
  await db.query('DELETE FROM feature_strategy_segments WHERE feature_strategy_id = $1', [id]);
  if (segmentIds.length === 0) return;
  await db.query(
    `INSERT INTO feature_strategy_segments (feature_strategy_id, segment_id)
     SELECT $1, unnest($2::int[])`,
    [id, segmentIds],
  );
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
