import type { Queryable } from '../db/database.js';
import type { Feature, FeatureRecord as FeatureTableRow } from '../features/core/queries.js';
import type { Stage } from '../features/lifecycle/stages.js';
import type { FeatureStrategy } from '../features/strategies/queries.js';

/** A feature's state in one environment. */
export interface EnvironmentState {
  name: string;
  enabled: boolean;
  variants: unknown[];
  lastSeenAt: Date | null;
}

/** A child's condition on its parent. */
export interface Dependency {
  feature: string;
  enabled: boolean;
  variants: string[];
}

/** A feature with everything hanging off it, as the read model holds it. */
export interface FeatureRecord extends Feature {
  environments: EnvironmentState[];
  /** Every environment's strategies, in evaluation order within each environment. */
  strategies: FeatureStrategy[];
  /**
   * The strategies of the milestone each environment's release plan has started: served to SDKs
   * besides (before) the environment's own, shown with the plan rather than among them.
   */
  releaseStrategies: FeatureStrategy[];
  /** In the order they were added. */
  tags: { type: string; value: string }[];
  /** Its parent, if it has one (a list, as Unleash shapes it). */
  dependencies: Dependency[];
  /** In the order they were added. */
  links: { id: string; url: string; title: string | null }[];
  /** The lifecycle stages entered, in no particular order. */
  stages: Stage[];
  /** The user who created it; null when an API token (or an import) did. */
  createdByUserId: number | null;
}

interface Row extends FeatureTableRow {
  created_by_user_id: number | null;
  environments: (Omit<EnvironmentState, 'lastSeenAt'> & { lastSeenAt: string | null })[];
  strategies: (Omit<FeatureStrategy, 'createdAt' | 'featureName'> & { createdAt: string })[];
  release_strategies: (Omit<FeatureStrategy, 'createdAt' | 'featureName'> & { createdAt: string })[];
  tags: { type: string; value: string }[];
  dependencies: Dependency[];
  links: { id: string; url: string; title: string | null }[];
  stages: (Omit<Stage, 'enteredStageAt'> & { enteredStageAt: string })[];
}

function date(text: string | null): Date | null {
  return text === null ? null : new Date(text);
}

/**
 * Names read in one statement at most: on the embedded database a statement runs in this thread,
 * and the 700 features of an import, read back in one, held the event loop for 200 ms.
 */
const NAMES_PER_STATEMENT = 200;

/**
 * The features of those names (every feature when `names` is null), archived ones included,
 * each with its environments, strategies, tags, parent, links and lifecycle stages. Many names are
 * read a page at a time: callers read in one transaction (a snapshot), so the pages agree.
 * A name that is not there any more is simply missing from the answer.
 */
export async function loadFeatureRecords(db: Queryable, names: string[] | null): Promise<FeatureRecord[]> {
  const records: FeatureRecord[] = [];
  if (names === null) {
    // Every feature, a page of names at a time: on the embedded database one statement over
    // thousands of features would hold the event loop for its whole run.
    for (let after = ''; ; ) {
      const { rows } = await db.query<{ name: string }>(
        'SELECT name FROM features WHERE name > $1 ORDER BY name LIMIT $2',
        [after, NAMES_PER_STATEMENT],
      );
      if (rows.length === 0) return records;
      records.push(
        ...(await loadPage(
          db,
          rows.map((r) => r.name),
        )),
      );
      after = rows[rows.length - 1]!.name;
    }
  }
  for (let start = 0; start < names.length; start += NAMES_PER_STATEMENT) {
    records.push(...(await loadPage(db, names.slice(start, start + NAMES_PER_STATEMENT))));
  }
  return records;
}

async function loadPage(db: Queryable, names: string[]): Promise<FeatureRecord[]> {
  const { rows } = await db.query<Row>(
    `SELECT f.name, f.project, f.description, f.type, f.stale, f.impression_data, f.archived_at, f.created_at,
            f.last_seen_at, f.created_by_user_id,
            coalesce((SELECT json_agg(json_build_object('name', fe.environment, 'enabled', fe.enabled,
                                                        'variants', fe.variants, 'lastSeenAt', fe.last_seen_at))
                        FROM feature_environments fe WHERE fe.feature_name = f.name), '[]') AS environments,
            coalesce((SELECT json_agg(json_build_object(
                               'id', s.id, 'environment', s.environment, 'name', s.strategy_name,
                               'title', s.title, 'disabled', s.disabled, 'parameters', s.parameters,
                               'constraints', s.constraints, 'variants', s.variants, 'sortOrder', s.sort_order,
                               'createdAt', s.created_at,
                               'segments', coalesce((SELECT json_agg(fss.segment_id ORDER BY fss.segment_id)
                                                       FROM feature_strategy_segments fss
                                                      WHERE fss.feature_strategy_id = s.id), '[]'))
                               ORDER BY s.environment, s.sort_order, s.created_at, s.id)
                        FROM feature_strategies s WHERE s.feature_name = f.name), '[]') AS strategies,
            coalesce((SELECT json_agg(json_build_object(
                               'id', st->>'id', 'environment', p.environment, 'name', st->>'name',
                               'title', st->'title', 'disabled', coalesce((st->>'disabled')::boolean, false),
                               'parameters', st->'parameters', 'constraints', st->'constraints',
                               'variants', st->'variants', 'segments', st->'segments',
                               'sortOrder', (st->>'sortOrder')::int, 'createdAt', m->>'startedAt')
                               ORDER BY p.environment, (st->>'sortOrder')::int, st->>'id')
                        FROM release_plans p
                             CROSS JOIN LATERAL jsonb_array_elements(p.milestones) m
                             CROSS JOIN LATERAL jsonb_array_elements(m->'strategies') st
                       WHERE p.feature_name = f.name AND m->>'id' = p.active_milestone_id), '[]') AS release_strategies,
            coalesce((SELECT json_agg(json_build_object('type', t.tag_type, 'value', t.tag_value)
                                      ORDER BY t.created_at, t.tag_type, t.tag_value)
                        FROM feature_tags t WHERE t.feature_name = f.name), '[]') AS tags,
            coalesce((SELECT json_agg(json_build_object('feature', d.parent, 'enabled', d.enabled,
                                                        'variants', d.variants))
                        FROM feature_dependencies d WHERE d.child = f.name), '[]') AS dependencies,
            coalesce((SELECT json_agg(json_build_object('id', l.id, 'url', l.url, 'title', l.title)
                                      ORDER BY l.created_at, l.id)
                        FROM feature_links l WHERE l.feature_name = f.name), '[]') AS links,
            coalesce((SELECT json_agg(json_build_object('stage', lc.stage, 'status', lc.status,
                                                        'statusValue', lc.status_value, 'enteredStageAt', lc.created_at))
                        FROM feature_lifecycles lc WHERE lc.feature_name = f.name), '[]') AS stages
       FROM features f
      WHERE f.name = ANY($1::text[])`,
    [names],
  );
  return rows.map((r) => ({
    name: r.name,
    project: r.project,
    description: r.description,
    type: r.type,
    stale: r.stale,
    impressionData: r.impression_data,
    archivedAt: r.archived_at,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    environments: r.environments.map((e) => ({ ...e, lastSeenAt: date(e.lastSeenAt) })),
    strategies: r.strategies.map((s) => ({ ...s, featureName: r.name, createdAt: new Date(s.createdAt) })),
    releaseStrategies: r.release_strategies.map((s) => ({
      ...s,
      featureName: r.name,
      createdAt: new Date(s.createdAt),
    })),
    tags: r.tags,
    dependencies: r.dependencies,
    links: r.links,
    stages: r.stages.map((st) => ({ ...st, enteredStageAt: new Date(st.enteredStageAt) })),
    createdByUserId: r.created_by_user_id,
  }));
}
