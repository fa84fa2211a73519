import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import type { RowLock } from '../db/lock.js';
import { NoAccessError, NotFoundError } from '../http/errors.js';
import type { Identity } from '../http/identity.js';
import { isAdmin } from '../http/permissions.js';
import { type ChangeRequestRow, findChangeRequest } from './store.js';

// Who may see and act on a change request, shared by its services.

/** The user a change request step is made by; an API token is nobody's and cannot make one. */
export function userOf(identity: Identity): number {
  if (identity.kind === 'user') return identity.userId;
  throw new NoAccessError(
    'Change requests are made, reviewed and applied by users: sign in, or use a personal access token.',
  );
}

/** Whether the caller made the request. */
export function isAuthor(identity: Identity, request: ChangeRequestRow): boolean {
  return identity.kind === 'user' && identity.userId === request.createdByUserId;
}

/** Whether the caller may see the request: a draft is its author's alone. */
export function sees(identity: Identity, request: ChangeRequestRow): boolean {
  return request.state !== 'Draft' || isAuthor(identity, request);
}

/** The request of the project, as the caller may see it; 404 otherwise. */
export async function requestOf(
  db: Queryable,
  identity: Identity,
  project: string,
  id: number,
  lock?: RowLock,
): Promise<ChangeRequestRow> {
  const request = await findChangeRequest(db, id, lock ? { lock } : {});
  if (!request || request.project !== project || !sees(identity, request)) {
    throw new NotFoundError(`The project "${project}" has no change request with the id ${id}.`);
  }
  return request;
}

/** Only the request's author (or an Admin) may change what it asks, or withdraw it. */
export function assertAuthorOrAdmin(identity: Identity, request: ChangeRequestRow, what: string): void {
  if (isAuthor(identity, request) || isAdmin(identity)) return;
  throw new NoAccessError(`Only the author of a change request, or an Admin, may ${what}.`);
}

/** The approvals changes in the environment of the project need; undefined where they need none. */
export function requiredApprovals(ctx: AppContext, project: string, environment: string): number | undefined {
  return ctx.model.project(project)?.changeRequestApprovals.get(environment);
}
