import type { Queryable } from '../db/database.js';
import type { Constraint, VariantDefinition } from './evaluation/types.js';

export interface FeatureInEnvironment {
  name: string;
  project: string;
  description: string | null;
  type: string;
  stale: boolean;
  impressionData: boolean;
  environment: string;
  enabled: boolean;
  variants: VariantDefinition[];
}

export interface ActiveStrategy {
  featureName: string;
  environment: string;
  id: string;
  name: string;
  title: string | null;
  parameters: Record<string, string>;
  constraints: Constraint[];
  variants: VariantDefinition[];
  segments: number[];
  sortOrder: number;
}

export interface SegmentRow {
  id: number;
  name: string;
  constraints: Constraint[];
}

export interface FlagState {
  revision: number;
  features: FeatureInEnvironment[];
  strategies: ActiveStrategy[];
  segments: SegmentRow[];
  tags: { featureName: string; type: string; value: string }[];
}

/**
 * Everything SDKs may be served, read in one transaction so the parts agree: live features in
 * each of their environments, their enabled strategies in order, segments and tags.
 */
export async function loadFlagState(db: {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}): Promise<FlagState> {
  return db.transaction(async (tx) => {
    const revision = await tx.query<{ id: number | null }>('SELECT max(id) AS id FROM events');
    const features = await tx.query<{
      name: string;
      project: string;
      description: string | null;
      type: string;
      stale: boolean;
      impression_data: boolean;
      environment: string;
      enabled: boolean;
      variants: VariantDefinition[];
    }>(
      // An environment whose strategies are all disabled is served off: without its strategies an
      // SDK would otherwise read "on, no strategies" as on for everyone.
      `SELECT f.name, f.project, f.description, f.type, f.stale, f.impression_data, fe.environment, fe.variants,
              fe.enabled AND NOT (
                EXISTS (SELECT 1 FROM feature_strategies s WHERE s.feature_name = f.name AND s.environment = fe.environment)
                AND NOT EXISTS (SELECT 1 FROM feature_strategies s
                                 WHERE s.feature_name = f.name AND s.environment = fe.environment AND NOT s.disabled)
              ) AS enabled
         FROM features f JOIN feature_environments fe ON fe.feature_name = f.name
        WHERE f.archived_at IS NULL
        ORDER BY f.name`,
    );
    const strategies = await tx.query<{
      feature_name: string;
      environment: string;
      id: string;
      strategy_name: string;
      title: string | null;
      parameters: Record<string, string>;
      constraints: Constraint[];
      variants: VariantDefinition[];
      segments: number[] | null;
      sort_order: number;
    }>(
      `SELECT s.feature_name, s.environment, s.id, s.strategy_name, s.title, s.parameters, s.constraints,
              s.variants, s.sort_order,
              (SELECT array_agg(fss.segment_id ORDER BY fss.segment_id) FROM feature_strategy_segments fss
                WHERE fss.feature_strategy_id = s.id) AS segments
         FROM feature_strategies s JOIN features f ON f.name = s.feature_name
        WHERE f.archived_at IS NULL AND NOT s.disabled
        ORDER BY s.feature_name, s.environment, s.sort_order, s.created_at, s.id`,
    );
    const segments = await tx.query<SegmentRow>('SELECT id, name, constraints FROM segments ORDER BY id');
    const tags = await tx.query<{ feature_name: string; tag_type: string; tag_value: string }>(
      'SELECT feature_name, tag_type, tag_value FROM feature_tags',
    );
    return {
      revision: revision.rows[0]?.id ?? 0,
      features: features.rows.map((r) => ({
        name: r.name,
        project: r.project,
        description: r.description,
        type: r.type,
        stale: r.stale,
        impressionData: r.impression_data,
        environment: r.environment,
        enabled: r.enabled,
        variants: r.variants,
      })),
      strategies: strategies.rows.map((r) => ({
        featureName: r.feature_name,
        environment: r.environment,
        id: r.id,
        name: r.strategy_name,
        title: r.title,
        parameters: r.parameters,
        constraints: r.constraints,
        variants: r.variants,
        segments: r.segments ?? [],
        sortOrder: r.sort_order,
      })),
      segments: segments.rows,
      tags: tags.rows.map((r) => ({ featureName: r.feature_name, type: r.tag_type, value: r.tag_value })),
    };
  });
}
