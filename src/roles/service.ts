import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import { enabledEnvironments, existingEnvironments } from '../environments/queries.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NoAccessError, NotFoundError, ValidationError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { can, isAdmin, type Permission } from '../http/permissions.js';
import { INT4_MAX } from '../http/schemas.js';
import { keepingAnAdmin } from '../identity/admins.js';
import { normalizePermissions, type PermissionInput } from './permission-rules.js';
import {
  deleteRoleRow,
  findRole,
  findRoleByName,
  findRoles,
  insertRole,
  listPermissions,
  listRoles,
  permissionsOfRoles,
  type RoleRow,
  replaceRolePermissions,
  roleHolders,
  type StoredPermission,
  updateRoleRow,
} from './store.js';

/** A root role given by id or by name (`Admin`, `Editor`, `Viewer` or a custom root role). */
export async function resolveRootRole(db: Queryable, value: number | string): Promise<RoleRow> {
  const byName = typeof value === 'string' && !/^\d+$/.test(value);
  // An id past the column's range names no role: asked, the database would refuse the number.
  const role = byName
    ? await findRoleByName(db, value)
    : Number(value) <= INT4_MAX
      ? await findRole(db, Number(value))
      : null;
  if (!role || (role.type !== 'root' && role.type !== 'root-custom')) {
    throw new ValidationError(
      `"${value}" is not a root role: use Admin (1), Editor (2), Viewer (3) or the id of a custom root role.`,
      [{ path: 'rootRole', message: 'Unknown root role.' }],
    );
  }
  return role;
}

export type RoleWithPermissions = RoleRow & { permissions: StoredPermission[] };

/** As shown in answers and audit events: `environment` only where it narrows the permission. */
export function describePermissions(permissions: StoredPermission[]) {
  return permissions.map((p) =>
    p.environment ? { name: p.name, environment: p.environment } : { name: p.name },
  );
}

function describeRole(role: RoleRow) {
  return { id: role.id, name: role.name, description: role.description, type: role.type };
}

function withPermissions(role: RoleRow, permissions: StoredPermission[]) {
  return { ...describeRole(role), permissions: describePermissions(permissions) };
}

function isBuiltIn(role: RoleRow): boolean {
  return role.type === 'root' || role.type === 'project';
}

/** The roles among `ids` that exist, each with its permissions (for granting them in projects). */
export async function rolesWithPermissions(db: Queryable, ids: number[]): Promise<RoleWithPermissions[]> {
  const roles = await findRoles(db, ids);
  const permissions = await permissionsOfRoles(
    db,
    roles.map((r) => r.id),
  );
  return roles.map((r) => ({ ...r, permissions: permissions.get(r.id) ?? [] }));
}

/** Owner, Member and the custom project roles: what can be granted in a project. */
export async function listProjectRoles(db: Queryable) {
  const roles = await listRoles(db);
  return roles.filter((r) => r.type === 'project' || r.type === 'custom').map(describeRole);
}

export async function readRoles(db: Queryable) {
  return { version: 1 as const, roles: (await listRoles(db)).map(describeRole) };
}

export async function readRole(db: Queryable, id: number) {
  const role = await findRole(db, id);
  if (!role) throw new NotFoundError(`There is no role with the id ${id}.`);
  const permissions = await permissionsOfRoles(db, [id]);
  return withPermissions(role, permissions.get(id) ?? []);
}

export async function readPermissions(db: Queryable) {
  const [permissions, environments] = await Promise.all([listPermissions(db), enabledEnvironments(db)]);
  const ofType = (type: string) => permissions.filter((p) => p.type === type);
  return {
    version: 1 as const,
    permissions: {
      root: ofType('root'),
      project: ofType('project'),
      environments: environments.map((name) => ({ name, permissions: ofType('environment') })),
    },
  };
}

/** The permission list of a role body, checked against the permissions and environments that exist. */
async function checkedPermissions(
  db: Queryable,
  type: RoleRow['type'],
  entries: PermissionInput[],
): Promise<StoredPermission[]> {
  const known = new Map((await listPermissions(db)).map((p) => [p.name, p.type]));
  const permissions = normalizePermissions(type, entries, known);
  const named = [...new Set(permissions.map((p) => p.environment).filter((e) => e !== ''))];
  const existing = await existingEnvironments(db, named);
  const unknown = named.filter((e) => !existing.has(e));
  if (unknown.length > 0) {
    throw new ValidationError(
      `These environments do not exist: ${unknown.join(', ')}. Use the name of an existing environment, or leave \`environment\` out for every environment.`,
      unknown.map((e) => ({ path: 'permissions', message: `Unknown environment "${e}".` })),
    );
  }
  return permissions;
}

/**
 * Someone allowed to manage roles, but not an Admin, may only put into a role what they may do
 * themselves everywhere: otherwise they could widen a role they hold.
 */
function assertMayGive(identity: Identity, permissions: StoredPermission[]): void {
  if (isAdmin(identity)) return;
  const missing = [...new Set(permissions.map((p) => p.name))].filter(
    (name) => !can(identity, name as Permission),
  );
  if (missing.length > 0) {
    throw new NoAccessError(
      `You may only give a role permissions you hold yourself; you lack ${missing.join(', ')}.`,
    );
  }
}

function trimmedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) {
    throw new ValidationError('A role needs a name that is not blank.', [
      { path: 'name', message: 'Must not be blank.' },
    ]);
  }
  return trimmed;
}

async function assertNameFree(db: Queryable, name: string, exceptId?: number): Promise<void> {
  const other = await findRoleByName(db, name);
  if (other && other.id !== exceptId) {
    throw new NameExistsError(`A role named "${name}" already exists: choose another name.`);
  }
}

export interface RoleInput {
  name: string;
  description?: string;
  type?: 'root-custom' | 'custom';
  permissions?: PermissionInput[];
}

export async function createRole(ctx: AppContext, identity: Identity, input: RoleInput) {
  const name = trimmedName(input.name);
  const type = input.type ?? 'custom';
  const create = () =>
    ctx.db.transaction(async (tx) => {
      const permissions = await checkedPermissions(tx, type, input.permissions ?? []);
      assertMayGive(identity, permissions);
      await assertNameFree(tx, name);
      const role = await insertRole(tx, { name, description: input.description ?? '', type });
      await replaceRolePermissions(tx, role.id, permissions);
      recordEvent(tx, actorOf(identity), {
        type: 'role-created',
        data: withPermissions(role, permissions),
      });
      return { version: 1 as const, roles: describeRole(role) };
    });
  return checkAgainOnDuplicate(create, () => assertNameFree(ctx.db, name));
}

/**
 * E4. Checks in the contract's order: the body (400), the role exists (404), it is not built in
 * (403), its new name is free (409). Left out, `type` and `permissions` stay as they are. The
 * role's row is locked first: concurrent updates of one role happen one after the other, each
 * with the permissions the one before left as `preData`. New permissions that take `ADMIN` from a
 * root role are refused while its holders are the last Admin users.
 */
export async function updateRole(ctx: AppContext, identity: Identity, id: number, input: RoleInput) {
  const name = trimmedName(input.name);
  const change = async (tx: Transaction) => {
    // A change of type checks who holds the role: that takes the lock that waits for them.
    const before = await findRole(tx, id, { lock: input.type ? 'exclusive' : 'update' });
    const type = input.type ?? before?.type ?? 'custom';
    const given = input.permissions && (await checkedPermissions(tx, type, input.permissions));
    if (!before) throw new NotFoundError(`There is no role with the id ${id}.`);
    if (isBuiltIn(before)) {
      throw new NoAccessError(
        `"${before.name}" is a built-in role and cannot be changed: create a custom role instead.`,
      );
    }
    const previous = (await permissionsOfRoles(tx, [id])).get(id) ?? [];
    const permissions = given ?? previous;
    if (given || type !== before.type) assertMayGive(identity, permissions);
    await assertNameFree(tx, name, id);
    if (type !== before.type) await assertUnused(tx, before, 'change the type of');
    const after = await updateRoleRow(tx, {
      id,
      name,
      description: input.description ?? '',
      type,
    });
    if (given) await replaceRolePermissions(tx, id, given);
    recordEvent(tx, actorOf(identity), {
      type: 'role-updated',
      data: withPermissions(after, permissions),
      preData: withPermissions(before, previous),
    });
    return { version: 1 as const, roles: describeRole(after) };
  };
  const update = () =>
    ctx.db.transaction((tx) =>
      input.permissions === undefined
        ? change(tx)
        : keepingAnAdmin(tx, `Changing the permissions of role ${id}`, () => change(tx)),
    );
  return checkAgainOnDuplicate(update, () => assertNameFree(ctx.db, name, id));
}

/** A role that someone holds cannot vanish or turn from a root role into a project role under them. */
async function assertUnused(db: Queryable, role: RoleRow, action: string): Promise<void> {
  const holders = await roleHolders(db, role.id);
  if (holders.users === 0 && holders.groups === 0) return;
  throw new NameExistsError(
    `You cannot ${action} the role "${role.name}" while ${holders.users} user(s) and ${holders.groups} group(s) hold it: ` +
      'give them another role first.',
  );
}

export async function deleteRole(ctx: AppContext, identity: Identity, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const role = await findRole(tx, id, { lock: 'exclusive' });
    if (!role) throw new NotFoundError(`There is no role with the id ${id}.`);
    if (isBuiltIn(role)) {
      throw new NoAccessError(`"${role.name}" is a built-in role and cannot be deleted.`);
    }
    await assertUnused(tx, role, 'delete');
    const permissions = (await permissionsOfRoles(tx, [id])).get(id) ?? [];
    await deleteRoleRow(tx, id);
    recordEvent(tx, actorOf(identity), {
      type: 'role-deleted',
      preData: withPermissions(role, permissions),
    });
  });
}
