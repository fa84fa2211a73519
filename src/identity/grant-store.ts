import type { Queryable } from '../db/database.js';

// Project grants: the roles users (role_user) and groups (group_role) hold in projects. A change
// here is an identity change: the events of the callers empty the identity caches.

/**
 * Every role to every user and every group; what is already granted stays as it is. The one way
 * grants are added, whether someone grants access or a project's creator becomes its Owner.
 */
export async function grantRoles(
  db: Queryable,
  project: string,
  roleIds: number[],
  userIds: number[],
  groupIds: number[],
  createdBy: string,
): Promise<void> {
  if (userIds.length > 0) {
    await db.query(
      `INSERT INTO role_user (role_id, user_id, project)
       SELECT r, u, $3 FROM unnest($1::int[]) AS r CROSS JOIN unnest($2::int[]) AS u
       ON CONFLICT DO NOTHING`,
      [roleIds, userIds, project],
    );
  }
  if (groupIds.length > 0) {
    await db.query(
      `INSERT INTO group_role (role_id, group_id, project, created_by)
       SELECT r, g, $3, $4 FROM unnest($1::int[]) AS r CROSS JOIN unnest($2::int[]) AS g
       ON CONFLICT DO NOTHING`,
      [roleIds, groupIds, project, createdBy],
    );
  }
}

export type Holder = { kind: 'user' | 'group'; id: number };

const TABLE = {
  user: { table: 'role_user', column: 'user_id' },
  group: { table: 'group_role', column: 'group_id' },
} as const;

export async function rolesOfHolder(db: Queryable, project: string, holder: Holder): Promise<number[]> {
  const { table, column } = TABLE[holder.kind];
  const { rows } = await db.query<{ role_id: number }>(
    `SELECT role_id FROM ${table} WHERE project = $1 AND ${column} = $2 ORDER BY role_id`,
    [project, holder.id],
  );
  return rows.map((r) => r.role_id);
}

/** The holder's roles in the project become exactly `roleIds` (none: every grant removed). */
export async function setRolesOfHolder(
  db: Queryable,
  project: string,
  holder: Holder,
  roleIds: number[],
  createdBy: string,
): Promise<void> {
  const { table, column } = TABLE[holder.kind];
  await db.query(
    `DELETE FROM ${table} WHERE project = $1 AND ${column} = $2 AND NOT (role_id = ANY($3::int[]))`,
    [project, holder.id, roleIds],
  );
  if (roleIds.length === 0) return;
  await grantRoles(
    db,
    project,
    roleIds,
    holder.kind === 'user' ? [holder.id] : [],
    holder.kind === 'group' ? [holder.id] : [],
    createdBy,
  );
}

/** A user or group with its roles in one project. */
export interface ProjectGrant {
  id: number;
  roles: number[];
}

/** The users holding roles in the project, by id, each with its roles. */
export async function userGrantsInProject(db: Queryable, project: string): Promise<ProjectGrant[]> {
  const { rows } = await db.query<ProjectGrant>(
    `SELECT user_id AS id, array_agg(role_id ORDER BY role_id) AS roles
       FROM role_user WHERE project = $1
      GROUP BY user_id ORDER BY user_id`,
    [project],
  );
  return rows;
}

/** The groups holding roles in the project, by id, each with its roles. */
export async function groupGrantsInProject(db: Queryable, project: string): Promise<ProjectGrant[]> {
  const { rows } = await db.query<ProjectGrant>(
    `SELECT group_id AS id, array_agg(role_id ORDER BY role_id) AS roles
       FROM group_role WHERE project = $1
      GROUP BY group_id ORDER BY group_id`,
    [project],
  );
  return rows;
}

/** How many users hold a role in each project (projects without any are missing). */
export async function memberCountsOfProjects(db: Queryable): Promise<Map<string, number>> {
  const { rows } = await db.query<{ project: string; members: number }>(
    'SELECT project, count(DISTINCT user_id)::int AS members FROM role_user GROUP BY project',
  );
  return new Map(rows.map((r) => [r.project, r.members]));
}

/** The projects each group holds a role in. */
export async function projectsOfGroups(db: Queryable): Promise<Map<number, string[]>> {
  const { rows } = await db.query<{ group_id: number; project: string }>(
    'SELECT DISTINCT group_id, project FROM group_role ORDER BY group_id, project',
  );
  const byGroup = new Map<number, string[]>();
  for (const r of rows) {
    const list = byGroup.get(r.group_id);
    if (list) list.push(r.project);
    else byGroup.set(r.group_id, [r.project]);
  }
  return byGroup;
}

/** A project role a user holds, directly or through a group. */
export interface HeldProjectRole {
  roleId: number;
  project: string;
}

/** The project roles a user holds, in every project or (`project` given) in one. */
export async function projectRolesOfUser(
  db: Queryable,
  userId: number,
  project: string | null,
): Promise<HeldProjectRole[]> {
  const { rows } = await db.query<{ role_id: number; project: string }>(
    `SELECT role_id, project FROM role_user WHERE user_id = $1 AND ($2::text IS NULL OR project = $2)
     UNION
     SELECT gr.role_id, gr.project FROM group_user gu JOIN group_role gr ON gr.group_id = gu.group_id
      WHERE gu.user_id = $1 AND ($2::text IS NULL OR gr.project = $2)
     ORDER BY project, role_id`,
    [userId, project],
  );
  return rows.map((r) => ({ roleId: r.role_id, project: r.project }));
}

/** A user who is an Admin, with what they sign in with (for messages). */
export interface AdminUser {
  id: number;
  login: string;
}

/**
 * The users who are Admins: whose root role holds `ADMIN`, or who are members of a group whose
 * root role does (as `user_grants` grants it), by id. Admin API tokens are no users.
 */
export async function findAdminUsers(db: Queryable): Promise<AdminUser[]> {
  const { rows } = await db.query<AdminUser>(
    `WITH admin_roles AS (
       SELECT r.id FROM roles r JOIN role_permissions rp ON rp.role_id = r.id
        WHERE rp.permission = 'ADMIN' AND r.type IN ('root', 'root-custom'))
     SELECT u.id, coalesce(u.username, u.email) AS login FROM users u
      WHERE u.root_role_id IN (SELECT id FROM admin_roles)
         OR EXISTS (SELECT 1 FROM group_user gu JOIN groups g ON g.id = gu.group_id
                     WHERE gu.user_id = u.id AND g.root_role_id IN (SELECT id FROM admin_roles))
      ORDER BY u.id`,
  );
  return rows;
}
