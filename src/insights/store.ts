import type { Queryable } from '../db/database.js';
import type { DefaultStrategy } from '../projects/service.js';

// The project reads of the admin UI, each one statement whatever the number of features. They
// count other areas' rows (features and their stages, events, grants, tokens, segments) and only
// read them.

/** A live feature's health: stale, or past its type's expected lifetime without being marked so. */
const LIVE = `
  live AS (
    SELECT f.name, f.type, f.stale,
           NOT f.stale AND ft.lifetime_days IS NOT NULL
             AND extract(epoch FROM now() - f.created_at) >= ft.lifetime_days * 86400.0 AS potentially_stale
      FROM features f LEFT JOIN feature_types ft ON ft.id = f.type
     WHERE f.project = $1 AND f.archived_at IS NULL)`;

const HEALTH_COLUMNS = `
  (SELECT count(*)::int FROM live) AS total,
  (SELECT count(*)::int FROM live WHERE stale) AS stale,
  (SELECT count(*)::int FROM live WHERE potentially_stale) AS potentially_stale`;

const MEMBERS = '(SELECT count(DISTINCT user_id)::int FROM role_user WHERE project = $1)';

export interface HealthCounts {
  total: number;
  stale: number;
  potentially_stale: number;
}

export interface ProjectFacts extends HealthCounts {
  id: string;
  name: string;
  description: string | null;
  mode: string;
  default_stickiness: string;
  created_at: Date;
  updated_at: Date | null;
  favorite: boolean;
  /** The caller's favorite features of the project. */
  favorite_features: string[];
  members: number;
  members_added: number;
  type_counts: { type: string; count: number }[];
  environments: { environment: string; defaultStrategy: DefaultStrategy | null }[];
  created_current: number;
  created_past: number;
  archived_current: number;
  archived_past: number;
  activity_current: number;
  activity_past: number;
  first_feature: string | null;
  seen: boolean;
  /** Days from creation to the live stage, of each feature (archived ones too) that reached it. */
  lead_times: { name: string; days: number; since: string }[];
}

/**
 * What the overview, insights, health report and lead times of a project are made of; null when
 * there is no such project. Windows are the last 30 days and the 30 before. `userId` marks the
 * caller's favorite.
 */
export async function findProjectFacts(
  db: Queryable,
  project: string,
  userId: number | null,
): Promise<ProjectFacts | null> {
  const { rows } = await db.query<ProjectFacts>(
    `WITH ${LIVE}
     SELECT p.id, p.name, p.description, p.mode, p.default_stickiness, p.created_at, p.updated_at,
            ${HEALTH_COLUMNS},
            EXISTS (SELECT 1 FROM favorite_projects WHERE user_id = $2 AND project = $1) AS favorite,
            (SELECT coalesce(json_agg(ff.feature_name), '[]')
               FROM favorite_features ff JOIN features f ON f.name = ff.feature_name
              WHERE ff.user_id = $2 AND f.project = $1) AS favorite_features,
            ${MEMBERS} AS members,
            (SELECT count(DISTINCT user_id)::int FROM role_user
              WHERE project = $1 AND created_at >= now() - interval '30 days') AS members_added,
            (SELECT coalesce(json_agg(json_build_object('type', type, 'count', n) ORDER BY type), '[]')
               FROM (SELECT type, count(*)::int AS n FROM live GROUP BY type) t) AS type_counts,
            (SELECT coalesce(json_agg(json_build_object('environment', pe.environment_name,
                                                        'defaultStrategy', pe.default_strategy)
                                      ORDER BY e.sort_order, e.name), '[]')
               FROM project_environments pe JOIN environments e ON e.name = pe.environment_name
              WHERE pe.project_id = $1) AS environments,
            (SELECT count(*)::int FROM features WHERE project = $1
                AND created_at >= now() - interval '30 days') AS created_current,
            (SELECT count(*)::int FROM features WHERE project = $1
                AND created_at >= now() - interval '60 days' AND created_at < now() - interval '30 days') AS created_past,
            (SELECT count(*)::int FROM features WHERE project = $1
                AND archived_at >= now() - interval '30 days') AS archived_current,
            (SELECT count(*)::int FROM features WHERE project = $1
                AND archived_at >= now() - interval '60 days' AND archived_at < now() - interval '30 days')
              AS archived_past,
            (SELECT count(*)::int FROM events WHERE project = $1
                AND created_at >= now() - interval '30 days') AS activity_current,
            (SELECT count(*)::int FROM events WHERE project = $1
                AND created_at >= now() - interval '60 days' AND created_at < now() - interval '30 days')
              AS activity_past,
            (SELECT name FROM features WHERE project = $1 ORDER BY created_at, name LIMIT 1) AS first_feature,
            EXISTS (SELECT 1 FROM features WHERE project = $1 AND last_seen_at IS NOT NULL) AS seen,
            (SELECT coalesce(json_agg(json_build_object(
                      'name', f.name,
                      'days', extract(epoch FROM l.created_at - f.created_at) / 86400,
                      'since', l.created_at) ORDER BY f.name), '[]')
               FROM features f JOIN feature_lifecycles l ON l.feature_name = f.name AND l.stage = 'live'
              WHERE f.project = $1) AS lead_times
       FROM projects p WHERE p.id = $1`,
    [project, userId],
  );
  return rows[0] ?? null;
}

export interface ProjectStatusFacts extends HealthCounts {
  members: number;
  api_tokens: number;
  segments: number;
  activity: { date: string; count: number }[];
  /** Live features by the stage they stand at. */
  stages: Record<string, number>;
  /** Whole days spent in each stage before the next, averaged over the project's features. */
  stage_days: Record<string, number>;
  archived: number;
  archived_recently: number;
}

/** What a project's status is made of; null when there is no such project. */
export async function findProjectStatusFacts(
  db: Queryable,
  project: string,
): Promise<ProjectStatusFacts | null> {
  const { rows } = await db.query<ProjectStatusFacts>(
    `WITH ${LIVE},
     entered AS (
       SELECT l.feature_name, l.stage, l.created_at,
              (SELECT min(n.created_at) FROM feature_lifecycles n
                WHERE n.feature_name = l.feature_name AND n.created_at > l.created_at) AS left_at
         FROM feature_lifecycles l JOIN features f ON f.name = l.feature_name
        WHERE f.project = $1 AND l.stage <> 'archived')
     SELECT ${HEALTH_COLUMNS},
            ${MEMBERS} AS members,
            (SELECT count(*)::int FROM api_tokens WHERE projects @> ARRAY[$1]::text[]) AS api_tokens,
            (SELECT count(*)::int FROM segments WHERE project = $1) AS segments,
            (SELECT coalesce(json_agg(json_build_object('date', day, 'count', n) ORDER BY day), '[]')
               FROM (SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n
                       FROM events WHERE project = $1 AND created_at >= now() - interval '1 year'
                      GROUP BY 1) a) AS activity,
            (SELECT coalesce(json_object_agg(stage, n), '{}')
               FROM (SELECT cur.stage, count(*)::int AS n
                       FROM features f
                       CROSS JOIN LATERAL (
                         SELECT l.stage FROM feature_lifecycles l WHERE l.feature_name = f.name
                          ORDER BY array_position(ARRAY['archived', 'completed', 'live', 'pre-live', 'initial'], l.stage)
                          LIMIT 1) cur
                      WHERE f.project = $1 AND f.archived_at IS NULL
                      GROUP BY cur.stage) s) AS stages,
            (SELECT coalesce(json_object_agg(stage, days), '{}')
               FROM (SELECT stage, round(avg(extract(epoch FROM left_at - created_at) / 86400))::int AS days
                       FROM entered WHERE left_at IS NOT NULL GROUP BY stage) d) AS stage_days,
            (SELECT count(*)::int FROM features WHERE project = $1 AND archived_at IS NOT NULL) AS archived,
            (SELECT count(*)::int FROM features WHERE project = $1
                AND archived_at >= now() - interval '30 days') AS archived_recently
       FROM projects p WHERE p.id = $1`,
    [project],
  );
  return rows[0] ?? null;
}

/** The users who created the project's live features, by name; null when there is no such project. */
export async function findFlagCreators(
  db: Queryable,
  project: string,
): Promise<{ id: number; name: string }[] | null> {
  const { rows } = await db.query<{ creators: { id: number; name: string }[] }>(
    `SELECT (SELECT coalesce(json_agg(json_build_object('id', u.id, 'name', u.label) ORDER BY u.label, u.id), '[]')
               FROM (SELECT DISTINCT u.id, coalesce(u.name, u.username, u.email) AS label
                       FROM features f JOIN users u ON u.id = f.created_by_user_id
                      WHERE f.project = $1 AND f.archived_at IS NULL) u) AS creators
       FROM projects p WHERE p.id = $1`,
    [project],
  );
  return rows[0]?.creators ?? null;
}

export interface FlagCreatorsPage {
  flagCreators: { id: number; name: string }[];
  total: number;
}

/**
 * One page of the users who created live features outside the hidden projects, by name, with how
 * many there are in all. The search matches anywhere in the name and at the start of the username
 * or email, as Unleash's does.
 */
export async function findFlagCreatorsAcross(
  db: Queryable,
  hidden: string[],
  search: { query?: string; limit: number; offset: number },
): Promise<FlagCreatorsPage> {
  const pattern = search.query?.replace(/[\\%_]/g, '\\$&');
  const { rows } = await db.query<FlagCreatorsPage>(
    `WITH creators AS (
       SELECT u.id, coalesce(nullif(u.name, ''), nullif(u.username, ''), u.email) AS label
         FROM users u
        WHERE EXISTS (SELECT 1 FROM features f
                       WHERE f.created_by_user_id = u.id AND f.archived_at IS NULL
                         AND NOT f.project = ANY($1::text[]))
          AND coalesce(nullif(u.name, ''), nullif(u.username, ''), nullif(u.email, '')) IS NOT NULL
          AND ($2::text IS NULL OR u.name ILIKE '%' || $2 || '%'
               OR u.username ILIKE $2 || '%' OR u.email ILIKE $2 || '%'))
     SELECT (SELECT count(*)::int FROM creators) AS total,
            (SELECT coalesce(json_agg(json_build_object('id', p.id, 'name', p.label) ORDER BY p.label, p.id), '[]')
               FROM (SELECT * FROM creators ORDER BY label, id LIMIT $3 OFFSET $4) p) AS "flagCreators"`,
    [hidden, pattern ?? null, search.limit, search.offset],
  );
  const page = rows[0] as FlagCreatorsPage;
  return { flagCreators: page.flagCreators, total: page.total };
}
