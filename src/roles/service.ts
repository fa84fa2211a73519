import type { Queryable } from '../db/database.js';
import { ValidationError } from '../http/errors.js';
import { findRole, findRoleByName, type RoleRow } from './store.js';

/** A root role given by id or by name (`Admin`, `Editor`, `Viewer` or a custom root role). */
export async function resolveRootRole(db: Queryable, value: number | string): Promise<RoleRow> {
  const role =
    typeof value === 'number' || /^\d+$/.test(value)
      ? await findRole(db, Number(value))
      : await findRoleByName(db, value);
  if (!role || (role.type !== 'root' && role.type !== 'root-custom')) {
    throw new ValidationError(
      `"${value}" is not a root role: use Admin (1), Editor (2), Viewer (3) or the id of a custom root role.`,
      [{ path: 'rootRole', message: 'Unknown root role.' }],
    );
  }
  return role;
}
