import type { Queryable } from '../db/database.js';

export interface FeatureStrategy {
  id: string;
  featureName: string;
  environment: string;
  /** The strategy type, e.g. `flexibleRollout`. */
  name: string;
  title: string | null;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: unknown[];
  variants: unknown[];
  segments: number[];
  sortOrder: number;
  createdAt: Date;
}

interface StrategyRecord {
  id: string;
  feature_name: string;
  environment: string;
  strategy_name: string;
  title: string | null;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: unknown[];
  variants: unknown[];
  segments: number[] | null;
  sort_order: number;
  created_at: Date;
}

export function toStrategy(r: StrategyRecord): FeatureStrategy {
  return {
    id: r.id,
    featureName: r.feature_name,
    environment: r.environment,
    name: r.strategy_name,
    title: r.title,
    disabled: r.disabled,
    parameters: r.parameters,
    constraints: r.constraints,
    variants: r.variants,
    segments: r.segments ?? [],
    sortOrder: r.sort_order,
    createdAt: r.created_at,
  };
}

export const STRATEGY_SELECT = `
  SELECT s.id, s.feature_name, s.environment, s.strategy_name, s.title, s.disabled,
         s.parameters, s.constraints, s.variants, s.sort_order, s.created_at,
         (SELECT array_agg(fss.segment_id ORDER BY fss.segment_id) FROM feature_strategy_segments fss
           WHERE fss.feature_strategy_id = s.id) AS segments
    FROM feature_strategies s`;

/** Every strategy of the given features, in evaluation order per feature and environment. */
export async function strategiesOfFeatures(
  db: Queryable,
  featureNames: string[],
): Promise<FeatureStrategy[]> {
  if (featureNames.length === 0) return [];
  const { rows } = await db.query<StrategyRecord>(
    `${STRATEGY_SELECT} WHERE s.feature_name = ANY($1::text[])
      ORDER BY s.feature_name, s.environment, s.sort_order, s.created_at, s.id`,
    [featureNames],
  );
  return rows.map(toStrategy);
}
