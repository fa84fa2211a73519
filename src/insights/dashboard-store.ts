import type { Queryable } from '../db/database.js';
import type { HealthCounts } from './store.js';

// The personal dashboard: one statement each, reading what other areas own (features, favorites,
// grants, groups, users, events) and counting it.

const OWNER_ROLE = 4;
const ADMIN_ROLE = 1;

export interface PersonName {
  id: number;
  name: string | null;
  username: string | null;
  email: string | null;
  imageUrl: string | null;
}

export interface PersonalDashboardFacts {
  projects: ({ id: string; name: string; members: number } & HealthCounts)[];
  flags: { name: string; project: string; type: string }[];
  admins: PersonName[];
  owners: PersonName[];
}

const PERSON = `json_build_object('id', u.id, 'name', u.name, 'username', u.username, 'email', u.email,
                                  'imageUrl', u.image_url)`;

/**
 * A user's projects (where they hold a role, themselves or through a group, and their favorites)
 * with their health counts; the live features they created or marked favorite, newest first (100
 * at most); the Admins; and the owners of projects — none of the `hidden` projects, nor of their
 * features or owners.
 */
export async function findPersonalDashboard(
  db: Queryable,
  userId: number,
  hidden: readonly string[],
): Promise<PersonalDashboardFacts> {
  const { rows } = await db.query<PersonalDashboardFacts>(
    `WITH mine AS (
       SELECT project FROM role_user WHERE user_id = $1
       UNION SELECT gr.project FROM group_role gr JOIN group_user gu ON gu.group_id = gr.group_id WHERE gu.user_id = $1
       UNION SELECT project FROM favorite_projects WHERE user_id = $1),
     health AS (
       SELECT f.project, count(*)::int AS total, count(*) FILTER (WHERE f.stale)::int AS stale,
              count(*) FILTER (WHERE NOT f.stale AND ft.lifetime_days IS NOT NULL
                                 AND extract(epoch FROM now() - f.created_at) >= ft.lifetime_days * 86400.0)::int
                AS potentially_stale
         FROM features f LEFT JOIN feature_types ft ON ft.id = f.type
        WHERE f.archived_at IS NULL AND f.project IN (SELECT project FROM mine)
        GROUP BY f.project),
     flags AS (
       SELECT f.name, f.project, f.type, f.created_at FROM features f
        WHERE f.archived_at IS NULL AND f.project <> ALL($2::text[])
          AND (f.created_by_user_id = $1
               OR f.name IN (SELECT feature_name FROM favorite_features WHERE user_id = $1))
        ORDER BY f.created_at DESC, f.name LIMIT 100)
     SELECT
       (SELECT coalesce(json_agg(json_build_object(
                 'id', p.id, 'name', p.name, 'total', coalesce(h.total, 0), 'stale', coalesce(h.stale, 0),
                 'potentially_stale', coalesce(h.potentially_stale, 0),
                 'members', (SELECT count(DISTINCT r.user_id)::int FROM role_user r WHERE r.project = p.id))
               ORDER BY p.name, p.id), '[]')
          FROM projects p LEFT JOIN health h ON h.project = p.id
         WHERE p.id IN (SELECT project FROM mine) AND p.id <> ALL($2::text[])) AS projects,
       (SELECT coalesce(json_agg(json_build_object('name', name, 'project', project, 'type', type)
                                 ORDER BY created_at DESC, name), '[]') FROM flags) AS flags,
       (SELECT coalesce(json_agg(${PERSON} ORDER BY u.id), '[]') FROM users u WHERE u.root_role_id = ${ADMIN_ROLE}) AS admins,
       (SELECT coalesce(json_agg(${PERSON} ORDER BY u.id), '[]')
          FROM users u
         WHERE u.id IN (SELECT user_id FROM role_user
                         WHERE role_id = ${OWNER_ROLE} AND project <> ALL($2::text[]))) AS owners`,
    [userId, hidden],
  );
  return rows[0]!;
}

export interface RecentEvent {
  id: number;
  type: string;
  createdBy: string;
  createdAt: string;
  featureName: string | null;
  environment: string | null;
  email: string | null;
  imageUrl: string | null;
}

export interface PersonalProjectFacts extends HealthCounts {
  events: RecentEvent[];
  first_feature: string | null;
  seen: boolean;
  owner_users: PersonName[];
  owner_groups: { name: string }[];
  roles: { id: number; name: string; type: string }[];
}

/**
 * One project as the user's dashboard shows it: its 10 latest events, how far it is onboarded,
 * its owners, the user's roles in it and its health counts; null when there is no such project.
 */
export async function findPersonalProject(
  db: Queryable,
  userId: number,
  project: string,
): Promise<PersonalProjectFacts | null> {
  const { rows } = await db.query<PersonalProjectFacts>(
    `WITH live AS (
       SELECT f.stale, NOT f.stale AND ft.lifetime_days IS NOT NULL
                AND extract(epoch FROM now() - f.created_at) >= ft.lifetime_days * 86400.0 AS potentially_stale
         FROM features f LEFT JOIN feature_types ft ON ft.id = f.type
        WHERE f.project = $1 AND f.archived_at IS NULL)
     SELECT
       (SELECT count(*)::int FROM live) AS total,
       (SELECT count(*)::int FROM live WHERE stale) AS stale,
       (SELECT count(*)::int FROM live WHERE potentially_stale) AS potentially_stale,
       (SELECT coalesce(json_agg(json_build_object(
                 'id', e.id, 'type', e.type, 'createdBy', e.created_by, 'createdAt', e.created_at,
                 'featureName', e.feature_name, 'environment', e.environment, 'email', u.email,
                 'imageUrl', u.image_url) ORDER BY e.id DESC), '[]')
          FROM (SELECT * FROM events WHERE project = $1 ORDER BY id DESC LIMIT 10) e
          LEFT JOIN users u ON u.id = e.created_by_user_id) AS events,
       (SELECT name FROM features WHERE project = $1 ORDER BY created_at, name LIMIT 1) AS first_feature,
       EXISTS (SELECT 1 FROM features WHERE project = $1 AND last_seen_at IS NOT NULL) AS seen,
       (SELECT coalesce(json_agg(${PERSON} ORDER BY u.id), '[]')
          FROM users u
         WHERE u.id IN (SELECT user_id FROM role_user WHERE project = $1 AND role_id = ${OWNER_ROLE})) AS owner_users,
       (SELECT coalesce(json_agg(json_build_object('name', g.name) ORDER BY g.name), '[]')
          FROM groups g
         WHERE g.id IN (SELECT group_id FROM group_role WHERE project = $1 AND role_id = ${OWNER_ROLE})) AS owner_groups,
       (SELECT coalesce(json_agg(json_build_object('id', r.id, 'name', r.name, 'type', r.type) ORDER BY r.id), '[]')
          FROM roles r
         WHERE r.type IN ('project', 'custom')
           AND r.id IN (SELECT role_id FROM role_user WHERE project = $1 AND user_id = $2
                        UNION SELECT gr.role_id FROM group_role gr JOIN group_user gu ON gu.group_id = gr.group_id
                               WHERE gr.project = $1 AND gu.user_id = $2)) AS roles
       FROM projects p WHERE p.id = $1`,
    [project, userId],
  );
  return rows[0] ?? null;
}
