import type { Queryable } from '../db/database.js';
import type { Grant } from '../http/identity.js';

// The roles users and groups hold in projects, for the folders that grant or show them.
export {
  grantRoles,
  groupGrantsInProject,
  type Holder,
  memberCountsOfProjects,
  projectRolesOfUser,
  projectsOfGroups,
  rolesOfHolder,
  setRolesOfHolder,
  userGrantsInProject,
} from './grant-store.js';

export interface Principal {
  id: number;
  username: string | null;
  email: string | null;
  rootRoleId: number;
  grants: Grant[];
  /** The private projects the user sees (see UserIdentity). */
  privateProjects: 'all' | ReadonlySet<string>;
}

const ADMIN_ROLE = 1;
const EDITOR_ROLE = 2;
const VIEWER_ROLE = 3;

/**
 * A user, every permission they hold (see `user_grants` in the migrations) and the projects they
 * hold a role in, in one query. Read when the identity cache misses; a change to roles, grants or
 * groups empties that cache. As in Unleash, only a Viewer is kept out of private projects they
 * hold no role in: any other root role (a custom one too), or a group's Admin or Editor root role,
 * sees them all.
 */
export async function findPrincipal(db: Queryable, userId: number): Promise<Principal | null> {
  const { rows } = await db.query<{
    id: number;
    username: string | null;
    email: string | null;
    root_role_id: number;
    grants: Grant[] | null;
    sees_every_project: boolean;
    member_of: string[];
  }>(
    `SELECT u.id, u.username, u.email, u.root_role_id, (SELECT json_agg(g) FROM user_grants(u.id) g) AS grants,
            u.root_role_id <> $2 OR EXISTS (
              SELECT 1 FROM group_user gu JOIN groups g ON g.id = gu.group_id
               WHERE gu.user_id = u.id AND g.root_role_id = ANY($3::int[])) AS sees_every_project,
            ARRAY(SELECT project FROM role_user WHERE user_id = u.id
                  UNION
                  SELECT gr.project FROM group_user gu JOIN group_role gr ON gr.group_id = gu.group_id
                   WHERE gu.user_id = u.id) AS member_of
       FROM users u WHERE u.id = $1`,
    [userId, VIEWER_ROLE, [ADMIN_ROLE, EDITOR_ROLE]],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    rootRoleId: row.root_role_id,
    grants: row.grants ?? [],
    privateProjects: row.sees_every_project ? 'all' : new Set(row.member_of),
  };
}
