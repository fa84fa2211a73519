import type { Queryable } from '../db/database.js';
import type { Grant } from '../http/identity.js';

export interface Principal {
  id: number;
  username: string | null;
  email: string | null;
  rootRoleId: number;
  grants: Grant[];
}

/**
 * A user and every permission they hold (see `user_grants` in the migrations), in one query.
 * Read when the identity cache misses; a change to roles, grants or groups empties that cache.
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
