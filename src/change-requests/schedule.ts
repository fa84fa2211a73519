import type { AppContext } from '../app-context.js';
import { identityOfUser } from '../auth/resolve-identity.js';
import { onChangeApplied } from '../changes/applier.js';
import type { Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { ValidationError } from '../http/errors.js';
import { type Actor, actorOf, type Identity, SYSTEM_ACTOR } from '../http/identity.js';
import { assertPermission } from '../http/permissions.js';
import { dropJob, scheduleJob } from '../jobs/queue.js';
import type { JobKind } from '../jobs/runner.js';
import { findUsers } from '../users/queries.js';
import { requestOf, userOf } from './access.js';
import { applyRequestAs, conflictOfRequest, requestEvent, SCHEDULED_JOB_KIND } from './apply.js';
import { insertComment } from './review-store.js';
import {
  type ChangeRequestRow,
  findChangeRequest,
  setSchedule,
  setState,
  stopSchedule,
  waitingSchedules,
} from './store.js';

/**
 * Schedules an approved request to be applied at a time to come, or moves a scheduled one to
 * another time (a suspended or failed schedule waits again). Needs APPLY_CHANGE_REQUEST.
 */
export async function scheduleRequest(
  ctx: AppContext,
  identity: Identity,
  project: string,
  id: number,
  scheduledAt: string | undefined,
  comment?: string,
): Promise<void> {
  const userId = userOf(identity);
  const at = new Date(scheduledAt ?? '');
  if (scheduledAt === undefined || Number.isNaN(at.getTime())) {
    throw new ValidationError(
      'A change request is scheduled with `scheduledAt`: a date and time to apply it at.',
      [{ path: 'scheduledAt', message: 'A date and time in ISO 8601 is required to schedule.' }],
    );
  }
  if (at.getTime() <= Date.now()) {
    throw new ValidationError(
      '`scheduledAt` has passed: schedule for a time to come, or apply the request now.',
      [{ path: 'scheduledAt', message: 'The time has passed.' }],
    );
  }
  await ctx.db.transaction(async (tx) => {
    const request = await requestOf(tx, identity, project, id, 'update');
    assertPermission(identity, 'APPLY_CHANGE_REQUEST', request);
    if (request.state !== 'Approved' && request.state !== 'Scheduled') {
      throw new ValidationError(
        `A change request in the state "${request.state}" cannot be scheduled: only an approved one can.`,
      );
    }
    if (request.state === 'Approved') await setState(tx, id, 'Scheduled');
    await setSchedule(tx, id, at, userId);
    await scheduleJob(tx, SCHEDULED_JOB_KIND, String(id), at);
    if (comment?.trim()) await insertComment(tx, id, comment, userId);
    recordEvent(
      tx,
      actorOf(identity),
      requestEvent(request, 'change-request-scheduled', { scheduledDate: at.toISOString() }),
    );
    tx.afterCommit(() => ctx.jobs.expect(at));
  });
}

/** A scheduled request rejected: its time will not come. */
export function unschedule(tx: Transaction, request: ChangeRequestRow): Promise<void> {
  return dropJob(tx, SCHEDULED_JOB_KIND, String(request.id));
}

async function suspend(
  tx: Transaction,
  request: ChangeRequestRow,
  reason: string,
  actor: Actor = SYSTEM_ACTOR,
) {
  await stopSchedule(tx, request.id, 'suspended', reason);
  await dropJob(tx, SCHEDULED_JOB_KIND, String(request.id));
  recordEvent(tx, actor, requestEvent(request, 'change-request-schedule-suspended', { reason }));
}

/**
 * The job that applies a scheduled request at its time, as the user who scheduled it. What it
 * changes having changed meanwhile, or that user gone, suspends it instead; a failure leaves it
 * scheduled, failed, with the reason.
 */
function scheduledRequestJob(ctx: AppContext): JobKind {
  return {
    async run(job) {
      const id = Number(job.key);
      const request = await ctx.db.transaction((tx) => findChangeRequest(tx, id, { lock: 'update' }));
      if (request?.state !== 'Scheduled' || request.scheduleStatus !== 'pending') return;
      const scheduler =
        request.scheduledByUserId === null
          ? null
          : await identityOfUser(ctx.db, ctx.identityCache, request.scheduledByUserId);
      if (!scheduler) {
        await ctx.db.transaction((tx) => suspend(tx, request, 'The user who scheduled it has been deleted.'));
        return;
      }
      const conflict = await conflictOfRequest(ctx, ctx.db, request);
      if (conflict) {
        await ctx.db.transaction((tx) => suspend(tx, request, conflict));
        return;
      }
      await applyRequestAs(ctx, scheduler, request, {
        event: 'change-request-scheduled-application-success',
      });
    },
    async failed(tx, job, reason) {
      const request = await findChangeRequest(tx, Number(job.key), { lock: 'update' });
      if (request?.state !== 'Scheduled') return;
      await stopSchedule(tx, request.id, 'failed', reason);
      const [user] =
        request.scheduledByUserId === null ? [] : await findUsers(tx, [request.scheduledByUserId]);
      const actor = user
        ? { name: user.username ?? user.email ?? `user-${user.id}`, userId: user.id }
        : SYSTEM_ACTOR;
      recordEvent(
        tx,
        actor,
        requestEvent(request, 'change-request-scheduled-application-failure', { reason }),
      );
    },
  };
}

/**
 * After a change of flags or segments, suspends the scheduled requests it conflicts with: they
 * would no longer apply what was approved. Several changes in a row are looked at once.
 */
function suspendOnConflicts(ctx: AppContext, running: () => boolean): () => void {
  let queued = false;
  const check = async () => {
    queued = false;
    if (!running()) return;
    const waiting = await waitingSchedules(ctx.db);
    for (const request of waiting) {
      const conflict = await conflictOfRequest(ctx, ctx.db, request);
      if (!conflict) continue;
      await ctx.db.transaction(async (tx) => {
        const now = await findChangeRequest(tx, request.id, { lock: 'update' });
        if (now?.state === 'Scheduled' && now.scheduleStatus === 'pending') await suspend(tx, now, conflict);
      });
    }
  };
  return () => {
    if (queued) return;
    queued = true;
    setTimeout(() => {
      check().catch((error: unknown) =>
        ctx.log.error({ err: error }, 'change requests: cannot check schedules'),
      );
    }, 50).unref();
  };
}

/** Runs scheduled requests on this process (with every other), and suspends those a change conflicts with. */
export function runScheduledRequests(ctx: AppContext): () => void {
  ctx.jobs.register(SCHEDULED_JOB_KIND, scheduledRequestJob(ctx));
  let running = true;
  const stopListening = onChangeApplied(
    ctx.db,
    suspendOnConflicts(ctx, () => running),
  );
  return () => {
    running = false;
    stopListening();
  };
}
