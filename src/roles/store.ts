import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface RoleRow {
  id: number;
  name: string;
  description: string;
  type: 'root' | 'project' | 'root-custom' | 'custom';
}

export async function findRole(
  db: Queryable,
  id: number,
  { lock }: ReadOptions = {},
): Promise<RoleRow | null> {
  const { rows } = await db.query<RoleRow>(
    withRowLock('SELECT id, name, description, type FROM roles WHERE id = $1', lock),
    [id],
  );
  return rows[0] ?? null;
}

export async function findRoleByName(db: Queryable, name: string): Promise<RoleRow | null> {
  const { rows } = await db.query<RoleRow>(
    'SELECT id, name, description, type FROM roles WHERE lower(name) = lower($1)',
    [name],
  );
  return rows[0] ?? null;
}

export async function listRootRoles(db: Queryable): Promise<RoleRow[]> {
  const { rows } = await db.query<RoleRow>(
    `SELECT id, name, description, type FROM roles WHERE type IN ('root', 'root-custom') ORDER BY id`,
  );
  return rows;
}

export async function listRoles(db: Queryable): Promise<RoleRow[]> {
  const { rows } = await db.query<RoleRow>('SELECT id, name, description, type FROM roles ORDER BY id');
  return rows;
}

export async function findRoles(db: Queryable, ids: number[]): Promise<RoleRow[]> {
  const { rows } = await db.query<RoleRow>(
    'SELECT id, name, description, type FROM roles WHERE id = ANY($1::int[]) ORDER BY id',
    [ids],
  );
  return rows;
}

/** A permission a role holds; `environment` '' means every environment. */
export interface StoredPermission {
  name: string;
  environment: string;
}

export async function permissionsOfRoles(
  db: Queryable,
  roleIds: number[],
): Promise<Map<number, StoredPermission[]>> {
  const { rows } = await db.query<{ role_id: number; permission: string; environment: string }>(
    `SELECT role_id, permission, environment FROM role_permissions
      WHERE role_id = ANY($1::int[]) ORDER BY role_id, permission, environment`,
    [roleIds],
  );
  const byRole = new Map<number, StoredPermission[]>(roleIds.map((id) => [id, []]));
  for (const r of rows) byRole.get(r.role_id)?.push({ name: r.permission, environment: r.environment });
  return byRole;
}

export async function insertRole(db: Queryable, role: Omit<RoleRow, 'id'>): Promise<RoleRow> {
  const { rows } = await db.query<RoleRow>(
    `INSERT INTO roles (name, description, type) VALUES ($1, $2, $3)
     RETURNING id, name, description, type`,
    [role.name, role.description, role.type],
  );
  return rows[0]!;
}

export async function updateRoleRow(db: Queryable, role: RoleRow): Promise<RoleRow> {
  const { rows } = await db.query<RoleRow>(
    `UPDATE roles SET name = $2, description = $3, type = $4 WHERE id = $1
     RETURNING id, name, description, type`,
    [role.id, role.name, role.description, role.type],
  );
  return rows[0]!;
}

export async function replaceRolePermissions(
  db: Queryable,
  roleId: number,
  permissions: StoredPermission[],
): Promise<void> {
  await db.query('DELETE FROM role_permissions WHERE role_id = $1', [roleId]);
  if (permissions.length === 0) return;
  await db.query(
    `INSERT INTO role_permissions (role_id, permission, environment)
     SELECT $1, p, e FROM unnest($2::text[], $3::text[]) AS t(p, e)`,
    [roleId, permissions.map((p) => p.name), permissions.map((p) => p.environment)],
  );
}

export async function deleteRoleRow(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM roles WHERE id = $1', [id]);
}

/** Who holds a role: as root role (users, groups) or granted in projects (users, groups). */
export async function roleHolders(db: Queryable, id: number): Promise<{ users: number; groups: number }> {
  const { rows } = await db.query<{ users: number; groups: number }>(
    `SELECT
       (SELECT count(*)::int FROM (
          SELECT id FROM users WHERE root_role_id = $1
          UNION SELECT user_id FROM role_user WHERE role_id = $1) u) AS users,
       (SELECT count(*)::int FROM (
          SELECT id FROM groups WHERE root_role_id = $1
          UNION SELECT group_id FROM group_role WHERE role_id = $1) g) AS groups`,
    [id],
  );
  return rows[0]!;
}

export interface PermissionRow {
  name: string;
  displayName: string;
  type: 'root' | 'project' | 'environment';
}

export async function listPermissions(db: Queryable): Promise<PermissionRow[]> {
  const { rows } = await db.query<PermissionRow>(
    'SELECT name, display_name AS "displayName", type FROM permissions ORDER BY type, name',
  );
  return rows;
}

/** The root roles that hold `ADMIN`: their users are administrators. */
export async function adminRoleIds(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT r.id FROM roles r JOIN role_permissions rp ON rp.role_id = r.id
      WHERE rp.permission = 'ADMIN' AND r.type IN ('root', 'root-custom') ORDER BY r.id`,
  );
  return rows.map((r) => r.id);
}
