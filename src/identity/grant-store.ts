import type { Queryable } from '../db/database.js';

/** Every role to every user and every group; what is already granted stays as it is. */
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

export interface UserAccess {
  id: number;
  username: string | null;
  name: string | null;
  email: string | null;
  imageUrl: string | null;
  roles: number[];
}

export interface GroupAccess {
  id: number;
  name: string;
  description: string | null;
  roles: number[];
}

export async function usersWithAccess(db: Queryable, project: string): Promise<UserAccess[]> {
  const { rows } = await db.query<UserAccess>(
    `SELECT u.id, u.username, u.name, u.email, u.image_url AS "imageUrl",
            array_agg(ru.role_id ORDER BY ru.role_id) AS roles
       FROM role_user ru JOIN users u ON u.id = ru.user_id
      WHERE ru.project = $1
      GROUP BY u.id ORDER BY u.id`,
    [project],
  );
  return rows;
}

export async function groupsWithAccess(db: Queryable, project: string): Promise<GroupAccess[]> {
  const { rows } = await db.query<GroupAccess>(
    `SELECT g.id, g.name, g.description, array_agg(gr.role_id ORDER BY gr.role_id) AS roles
       FROM group_role gr JOIN groups g ON g.id = gr.group_id
      WHERE gr.project = $1
      GROUP BY g.id ORDER BY g.id`,
    [project],
  );
  return rows;
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

export async function existingUserIds(db: Queryable, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE id = ANY($1::int[])', [ids]);
  return new Set(rows.map((r) => r.id));
}
