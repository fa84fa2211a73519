import type { Queryable } from '../../db/database.js';

// Who uses what, for the changes that must not leave a strategy pointing at nothing: deleting a
// context field or a segment, limiting a segment to one project, moving a feature.

export interface SegmentUse {
  id: string;
  featureName: string;
  projectId: string;
  environment: string;
  strategyName: string;
}

/** The strategies (of live and archived features) that use the segment. */
export async function strategiesUsingSegment(db: Queryable, segmentId: number): Promise<SegmentUse[]> {
  const { rows } = await db.query<{
    id: string;
    feature_name: string;
    project: string;
    environment: string;
    strategy_name: string;
  }>(
    `SELECT s.id, s.feature_name, f.project, s.environment, s.strategy_name
       FROM feature_strategy_segments fss
       JOIN feature_strategies s ON s.id = fss.feature_strategy_id
       JOIN features f ON f.name = s.feature_name
      WHERE fss.segment_id = $1
      ORDER BY s.feature_name, s.environment, s.sort_order, s.id`,
    [segmentId],
  );
  return rows.map((r) => ({
    id: r.id,
    featureName: r.feature_name,
    projectId: r.project,
    environment: r.environment,
    strategyName: r.strategy_name,
  }));
}

/** Names of the features (live or archived) with a strategy constraint on the context field. */
export async function featuresUsingContextField(db: Queryable, contextName: string): Promise<string[]> {
  const { rows } = await db.query<{ feature_name: string }>(
    `SELECT DISTINCT feature_name FROM feature_strategies WHERE constraints @> $1::jsonb ORDER BY feature_name`,
    [JSON.stringify([{ contextName }])],
  );
  return rows.map((r) => r.feature_name);
}

/** The ids of the segments the feature's strategies use (in any environment), ascending. */
export async function segmentIdsOfFeature(db: Queryable, featureName: string): Promise<number[]> {
  const { rows } = await db.query<{ segment_id: number }>(
    `SELECT DISTINCT fss.segment_id
       FROM feature_strategies s JOIN feature_strategy_segments fss ON fss.feature_strategy_id = s.id
      WHERE s.feature_name = $1
      ORDER BY fss.segment_id`,
    [featureName],
  );
  return rows.map((r) => r.segment_id);
}

/** Names of the features (live or archived) with a strategy of that type, at most `limit`. */
export async function featuresUsingStrategyType(
  db: Queryable,
  name: string,
  limit: number,
): Promise<string[]> {
  const { rows } = await db.query<{ feature_name: string }>(
    `SELECT DISTINCT feature_name FROM feature_strategies WHERE strategy_name = $1
      ORDER BY feature_name LIMIT $2`,
    [name, limit],
  );
  return rows.map((r) => r.feature_name);
}
