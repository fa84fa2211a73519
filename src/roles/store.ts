import type { Queryable } from '../db/database.js';
import type { Grant } from '../http/identity.js';

export interface RoleRow {
  id: number;
  name: string;
  description: string;
  type: 'root' | 'project' | 'root-custom' | 'custom';
}

export interface Principal {
  id: number;
  username: string | null;
  email: string | null;
  rootRoleId: number;
  grants: Grant[];
}

/**
 * A user and every permission they hold (see `user_grants` in the migrations), in one query.
 * Read on every request, so a change to roles, grants or groups applies to the very next one.
 */
export async function findPrincipal(db: Queryable, userId: number): Promise<Principal | null> {
  const { rows } = await db.query<{
    id: number;
    username: string | null;
    email: string | null;
    root_role_id: number;
    grants: Grant[] | null;
  }>(
    `SELECT u.id, u.username, u.email, u.root_role_id, (SELECT json_agg(g) FROM user_grants(u.id) g) AS grants
       FROM users u WHERE u.id = $1`,
    [userId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    rootRoleId: row.root_role_id,
    grants: row.grants ?? [],
  };
}

export async function findRole(db: Queryable, id: number): Promise<RoleRow | null> {
  const { rows } = await db.query<RoleRow>('SELECT id, name, description, type FROM roles WHERE id = $1', [
    id,
  ]);
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
