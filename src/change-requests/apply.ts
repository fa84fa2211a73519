import type { AppContext } from '../app-context.js';
import { applyApprovedChanges } from '../changes/applier.js';
import { CHANGES } from '../changes/commands.js';
import type { Queryable } from '../db/database.js';
import { type EventInput, recordEvent } from '../events/service.js';
import { ConflictError, ValidationError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import type { RoutePermission } from '../http/permissions.js';
import { dropJob } from '../jobs/queue.js';
import { conflictOf } from './conflicts.js';
import { commandOf } from './kinds/kinds.js';
import { insertComment } from './review-store.js';
import { type ChangeRequestRow, changesOf, findChangeRequest, setState } from './store.js';

/** The kind of job that applies a scheduled change request (its key: the request's id). */
export const SCHEDULED_JOB_KIND = 'change-request';

/** An event of a step of the request: its project, environment and id. */
export function requestEvent(
  request: ChangeRequestRow,
  type: EventInput['type'],
  data: Record<string, unknown> = {},
): EventInput {
  return {
    type,
    project: request.project,
    environment: request.environment,
    data: { changeRequestId: request.id, ...data },
  };
}

/** Why the request cannot be applied as it was approved (its first change in conflict), or undefined. */
export async function conflictOfRequest(
  ctx: AppContext,
  db: Queryable,
  request: ChangeRequestRow,
): Promise<string | undefined> {
  for (const change of await changesOf(db, [request.id])) {
    const conflict = conflictOf(ctx, request, change, change.snapshot);
    if (conflict) return conflict;
  }
  return undefined;
}

/**
 * The caller as the changes of an approved request run: holding, in its environment, the
 * permissions of changes. The approval stands for them: switching on a flag with no strategy adds
 * one, which the reviewers saw (as in Unleash) but the one who applies may not be allowed to add.
 */
function approvedFor(identity: Identity, request: ChangeRequestRow): Identity {
  if (identity.kind !== 'user') return identity;
  const permissions = new Set<string>(
    Object.values(CHANGES).flatMap((c): readonly string[] => {
      const p: RoutePermission = c.permission;
      return typeof p === 'string' ? [p] : p;
    }),
  );
  permissions.delete('NONE');
  const granted = [...permissions].map((permission) => ({
    permission,
    project: request.project,
    environment: request.environment,
  }));
  return { ...identity, grants: [...identity.grants, ...granted] };
}

export interface ApplyOptions {
  comment?: string;
  /** An event recorded before `change-request-applied` (a schedule's success). */
  event?: EventInput['type'];
}

/**
 * Applies an approved (or scheduled) request: its changes, as `identity`, in one transaction with
 * its new state, or none of them. A change whose target changed since it was added (a conflict)
 * stops it: it was not what the reviewers approved. Who may apply it is the caller's to check.
 */
export async function applyRequestAs(
  ctx: AppContext,
  identity: Identity,
  request: ChangeRequestRow,
  options: ApplyOptions = {},
): Promise<void> {
  await applyApprovedChanges(ctx, approvedFor(identity, request), {
    async commands(tx) {
      const locked = await findChangeRequest(tx, request.id, { lock: 'update' });
      if (locked?.state !== 'Approved' && locked?.state !== 'Scheduled') {
        throw new ValidationError(
          `A change request in the state "${locked?.state}" cannot be applied: only an approved or scheduled one can.`,
        );
      }
      const conflict = await conflictOfRequest(ctx, tx, locked);
      if (conflict) throw new ConflictError(`The change request cannot be applied: ${conflict}`);
      return (await changesOf(tx, [request.id])).map((change) => commandOf(locked, change));
    },
    async applied(tx) {
      await setState(tx, request.id, 'Applied');
      await dropJob(tx, SCHEDULED_JOB_KIND, String(request.id));
      if (options.comment?.trim() && identity.kind === 'user') {
        await insertComment(tx, request.id, options.comment, identity.userId);
      }
      const actor = actorOf(identity);
      if (options.event) recordEvent(tx, actor, requestEvent(request, options.event));
      recordEvent(tx, actor, requestEvent(request, 'change-request-applied'));
    },
  });
}
