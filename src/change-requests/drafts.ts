import { Value } from '@sinclair/typebox/value';
import type { AppContext } from '../app-context.js';
import { CHANGES } from '../changes/commands.js';
import type { Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { compileCheck, itemPath, throwIfProblems } from '../http/check.js';
import { ApiError, type ErrorDetail, NotFoundError, ValidationError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { assertPermission } from '../http/permissions.js';
import { assertAuthorOrAdmin, requestOf, requiredApprovals, userOf } from './access.js';
import {
  CHANGE_ACTIONS,
  type ChangeAction,
  commandOf,
  isFeatureChange,
  payloadSchemaOf,
  type StoredChange,
  snapshotOf,
  type Target,
  targetKeyOf,
} from './kinds/kinds.js';
import { clearApprovals } from './review-store.js';
import {
  type ChangeRequestRow,
  changesOf,
  deleteChangeRequest,
  deleteChanges,
  findDraft,
  insertChange,
  insertChangeRequest,
  setState,
} from './store.js';
import { checkTarget } from './targets.js';
import { type ChangeRequestView, viewsOf } from './views.js';

/** A change as a client sends it (`changeRequestCreateSchema`). */
export interface ChangeInput {
  feature?: string | null;
  action: ChangeAction;
  payload?: Record<string, unknown>;
}

const payloadChecks = new Map(CHANGE_ACTIONS.map((a) => [a, compileCheck(payloadSchemaOf(a))]));

/**
 * The change as it will be stored, checked now against what exists (its flag in the project, the
 * strategy or segment it names) and against the caller's right to make it directly: a change
 * request asks for a change the caller could otherwise make.
 */
function checkedChange(
  ctx: AppContext,
  identity: Identity,
  target: Target,
  input: ChangeInput,
  path: string,
  problems: ErrorDetail[],
): StoredChange | undefined {
  const found = payloadChecks.get(input.action)!.problems(input.payload ?? {}, `${path}.payload`);
  if (found.length > 0) {
    problems.push(...found);
    return undefined;
  }
  // What the action does not take is not kept: a request holds what it will change, no more.
  const payload = Value.Clean(payloadSchemaOf(input.action), input.payload ?? {}) as Record<string, unknown>;
  const feature = input.feature ?? null;
  if (isFeatureChange(input.action)) {
    if (!feature) {
      problems.push({
        path: itemPath(`${path}.feature`),
        message: `A change "${input.action}" names its flag.`,
      });
      return undefined;
    }
    const record = ctx.model.feature(feature);
    if (!record || record.archivedAt || record.project !== target.project) {
      throw new NotFoundError(`The project "${target.project}" has no flag named "${feature}".`);
    }
  } else if (feature) {
    problems.push({
      path: itemPath(`${path}.feature`),
      message: `A change "${input.action}" names no flag.`,
    });
    return undefined;
  }
  const change: StoredChange = { feature, action: input.action, payload };
  checkTarget(ctx, target, change);
  const command = commandOf(target, change);
  const kind = CHANGES[command.action] as unknown as {
    permission: Parameters<typeof assertPermission>[1];
    scope: (c: unknown, x: AppContext) => Parameters<typeof assertPermission>[2];
  };
  assertPermission(identity, kind.permission, kind.scope(command, ctx));
  return change;
}

function checkedChanges(ctx: AppContext, identity: Identity, target: Target, inputs: readonly ChangeInput[]) {
  const problems: ErrorDetail[] = [];
  const changes = inputs.map((input, i) =>
    checkedChange(ctx, identity, target, input, inputs.length > 1 ? `[${i}]` : '', problems),
  );
  throwIfProblems(problems);
  return changes as StoredChange[];
}

async function storeChange(
  ctx: AppContext,
  tx: Transaction,
  request: ChangeRequestRow,
  change: StoredChange,
  userId: number,
) {
  return insertChange(tx, {
    changeRequestId: request.id,
    ...change,
    snapshot: snapshotOf(ctx, request, change),
    createdByUserId: userId,
  });
}

/**
 * Adds the changes to the caller's draft for the environment of the project, made when there is
 * none. A change of what an earlier change of the draft changes (the flag's on/off, one strategy,
 * its variants) takes that one's place.
 */
export async function addChanges(
  ctx: AppContext,
  identity: Identity,
  target: Target,
  inputs: readonly ChangeInput[],
): Promise<ChangeRequestView> {
  const userId = userOf(identity);
  const approvals = requiredApprovals(ctx, target.project, target.environment);
  if (approvals === undefined) {
    if (!ctx.model.project(target.project))
      throw new NotFoundError(`No project has the id "${target.project}".`);
    throw new ValidationError(
      `The environment "${target.environment}" of the project "${target.project}" does not take change requests: change its flags directly, or turn change requests on there first.`,
    );
  }
  const changes = checkedChanges(ctx, identity, target, inputs);
  const actor = actorOf(identity);
  return ctx.db.transaction(async (tx) => {
    let draft = await findDraft(tx, userId, target.project, target.environment, { lock: 'update' });
    if (!draft) {
      draft = await insertChangeRequest(tx, { ...target, minApprovals: approvals, createdByUserId: userId });
      recordEvent(tx, actor, {
        type: 'change-request-created',
        ...target,
        data: { changeRequestId: draft.id },
      });
    }
    const keys = new Set(changes.map(targetKeyOf).filter((k) => k !== undefined));
    const replaced = (await changesOf(tx, [draft.id])).filter((c) => keys.has(targetKeyOf(c) ?? ''));
    await deleteChanges(
      tx,
      draft.id,
      replaced.map((c) => c.id),
    );
    for (const [i, change] of changes.entries()) {
      const key = targetKeyOf(change);
      // Of two changes of one target in the same call, the later counts.
      if (key !== undefined && changes.slice(i + 1).some((c) => targetKeyOf(c) === key)) continue;
      const stored = await storeChange(ctx, tx, draft, change, userId);
      recordEvent(tx, actor, {
        type: 'change-added',
        ...target,
        featureName: change.feature,
        data: {
          changeRequestId: draft.id,
          change: { id: stored.id, action: change.action, payload: change.payload },
        },
      });
    }
    return (await viewsOf(ctx, tx, [draft]))[0]!;
  });
}

/** A request whose changes its author may still change: not yet scheduled or closed. */
async function editableRequest(tx: Transaction, identity: Identity, project: string, id: number) {
  const request = await requestOf(tx, identity, project, id, 'update');
  assertAuthorOrAdmin(identity, request, 'change its changes');
  if (!['Draft', 'In review', 'Approved'].includes(request.state)) {
    throw new ApiError(
      400,
      'ValidationError',
      `A change request in the state "${request.state}" cannot be changed.`,
    );
  }
  return request;
}

/** What was approved has changed: the approvals given go, and an approved request is reviewed again. */
async function reviewAgain(tx: Transaction, request: ChangeRequestRow): Promise<void> {
  await clearApprovals(tx, request.id);
  if (request.state === 'Approved') await setState(tx, request.id, 'In review');
}

async function removeChange(tx: Transaction, request: ChangeRequestRow, changeId: number) {
  const change = (await changesOf(tx, [request.id])).find((c) => c.id === changeId);
  if (!change) {
    throw new NotFoundError(`The change request ${request.id} has no change with the id ${changeId}.`);
  }
  await deleteChanges(tx, request.id, [changeId]);
  return change;
}

/** Replaces one change of a request with another (which gets an id of its own, as in Unleash). */
export async function editChange(
  ctx: AppContext,
  identity: Identity,
  project: string,
  id: number,
  changeId: number,
  input: ChangeInput,
): Promise<ChangeRequestView> {
  const userId = userOf(identity);
  return ctx.db.transaction(async (tx) => {
    const request = await editableRequest(tx, identity, project, id);
    const [change] = checkedChanges(ctx, identity, request, [input]);
    const before = await removeChange(tx, request, changeId);
    const stored = await storeChange(ctx, tx, request, change!, userId);
    await reviewAgain(tx, request);
    recordEvent(tx, actorOf(identity), {
      type: 'change-edited',
      project,
      environment: request.environment,
      featureName: stored.feature,
      data: {
        changeRequestId: id,
        change: { id: stored.id, action: stored.action, payload: stored.payload },
      },
      preData: { change: { id: before.id, action: before.action, payload: before.payload } },
    });
    const after = await requestOf(tx, identity, project, id);
    return (await viewsOf(ctx, tx, [after]))[0]!;
  });
}

export async function discardChange(
  ctx: AppContext,
  identity: Identity,
  project: string,
  id: number,
  changeId: number,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const request = await editableRequest(tx, identity, project, id);
    const change = await removeChange(tx, request, changeId);
    await reviewAgain(tx, request);
    recordEvent(tx, actorOf(identity), {
      type: 'change-discarded',
      project,
      environment: request.environment,
      featureName: change.feature,
      data: { changeRequestId: id, changeId },
    });
  });
}

/** Removes a request that has not been applied, with its changes. */
export async function discardRequest(ctx: AppContext, identity: Identity, project: string, id: number) {
  await ctx.db.transaction(async (tx) => {
    const request = await editableRequest(tx, identity, project, id);
    await deleteChangeRequest(tx, id);
    recordEvent(tx, actorOf(identity), {
      type: 'change-request-discarded',
      project,
      environment: request.environment,
      data: { changeRequestId: id },
    });
  });
}
