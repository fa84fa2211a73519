import { type ErrorDetail, ValidationError } from '../http/errors.js';
import type { StoredPermission } from './store.js';

export interface PermissionInput {
  name: string;
  environment?: string;
}

export type PermissionType = 'root' | 'project' | 'environment';

/**
 * The permissions a role of `roleType` will hold. Names must exist; a project role cannot hold an
 * instance-wide permission (it would mean nothing inside a project). Only the environment-scoped
 * permissions of project roles keep their environment; everywhere else it is stored as ''.
 * Repeated entries count once.
 */
export function normalizePermissions(
  roleType: string,
  entries: PermissionInput[],
  known: ReadonlyMap<string, PermissionType>,
): StoredPermission[] {
  const projectRole = roleType === 'custom' || roleType === 'project';
  const unknownNames: string[] = [];
  const unknown: ErrorDetail[] = [];
  const misplaced: ErrorDetail[] = [];
  const result = new Map<string, StoredPermission>();
  entries.forEach((entry, i) => {
    const type = known.get(entry.name);
    if (type === undefined) {
      unknownNames.push(entry.name);
      unknown.push({ path: `permissions.${i}.name`, message: `There is no permission "${entry.name}".` });
      return;
    }
    if (projectRole && type === 'root') {
      misplaced.push({
        path: `permissions.${i}.name`,
        message: `"${entry.name}" is an instance-wide permission; only a root role (type root-custom) can hold it.`,
      });
      return;
    }
    const environment = projectRole && type === 'environment' ? (entry.environment ?? '').trim() : '';
    result.set(`${entry.name}\u0000${environment}`, { name: entry.name, environment });
  });
  if (unknown.length > 0) {
    throw new ValidationError(
      `Unknown permissions: ${unknownNames.join(', ')}. GET /api/admin/permissions lists them all.`,
      [...unknown, ...misplaced],
    );
  }
  if (misplaced.length > 0) {
    throw new ValidationError(
      misplaced.length === 1
        ? misplaced[0]!.message
        : 'A project role cannot hold instance-wide permissions: see `details`.',
      misplaced,
    );
  }
  return [...result.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.environment.localeCompare(b.environment),
  );
}
