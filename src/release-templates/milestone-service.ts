import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { checkMilestone, checkMilestoneStrategy, inOrder } from './milestones.js';
import type { MilestoneBody, MilestoneStrategyBody } from './schemas.js';
import { describeTemplate, getTemplate } from './service.js';
import { type Milestone, type Template, updateTemplate } from './store.js';

// One milestone, or one strategy of a milestone, of a template changed on its own: each is a
// change of the template, recorded as `release-plan-template-updated` with before and after.

/** Locks the template, lets `edit` change its milestones, saves them and records the change. */
async function editMilestones<T>(
  ctx: AppContext,
  identity: Identity,
  id: string,
  /** `project`: the template's, whose segments its strategies may use ('' when it has none). */
  edit: (milestones: Milestone[], tx: Transaction, project: string) => Promise<T>,
): Promise<{ result: T; after: Template }> {
  return ctx.db.transaction(async (tx) => {
    const before = await getTemplate(tx, id, { lock: 'update' });
    const milestones = structuredClone(before.milestones);
    const result = await edit(milestones, tx, before.project ?? '');
    const after = await updateTemplate(tx, id, { ...before, milestones: inOrder(milestones) });
    recordEvent(tx, actorOf(identity), {
      type: 'release-plan-template-updated',
      project: after.project,
      data: describeTemplate(after),
      preData: describeTemplate(before),
    });
    return { result, after };
  });
}

function milestoneIn(milestones: Milestone[], templateId: string, milestoneId: string): Milestone {
  const milestone = milestones.find((m) => m.id === milestoneId);
  if (!milestone) {
    throw new NotFoundError(
      `The release template "${templateId}" has no milestone with the id "${milestoneId}".`,
    );
  }
  return milestone;
}

const described = (after: Template, milestoneId: string) =>
  describeTemplate(after).milestones.find((m) => m.id === milestoneId)!;

export async function addMilestone(
  ctx: AppContext,
  identity: Identity,
  id: string,
  input: Static<typeof MilestoneBody>,
) {
  const { result, after } = await editMilestones(ctx, identity, id, async (milestones, tx, project) => {
    const milestone = await checkMilestone(ctx, tx, input, milestones.length, project);
    milestones.push(milestone);
    return milestone.id;
  });
  return described(after, result);
}

/** Replaces a milestone's name, place and strategies; it keeps its id. */
export async function changeMilestone(
  ctx: AppContext,
  identity: Identity,
  id: string,
  milestoneId: string,
  input: Static<typeof MilestoneBody>,
) {
  const { after } = await editMilestones(ctx, identity, id, async (milestones, tx, project) => {
    const milestone = milestoneIn(milestones, id, milestoneId);
    const checked = await checkMilestone(ctx, tx, input, milestone.sortOrder, project);
    Object.assign(milestone, { ...checked, id: milestoneId });
  });
  return described(after, milestoneId);
}

export async function removeMilestone(ctx: AppContext, identity: Identity, id: string, milestoneId: string) {
  await editMilestones(ctx, identity, id, async (milestones) => {
    milestones.splice(milestones.indexOf(milestoneIn(milestones, id, milestoneId)), 1);
  });
}

export async function addMilestoneStrategy(
  ctx: AppContext,
  identity: Identity,
  id: string,
  milestoneId: string,
  input: Static<typeof MilestoneStrategyBody>,
) {
  const { result, after } = await editMilestones(ctx, identity, id, async (milestones, tx, project) => {
    const milestone = milestoneIn(milestones, id, milestoneId);
    const position = milestone.strategies.length;
    const strategy = await checkMilestoneStrategy(ctx, tx, input, position, project);
    milestone.strategies = inOrder([...milestone.strategies, strategy]);
    return strategy.id;
  });
  return described(after, milestoneId).strategies.find((s) => s.id === result)!;
}

export async function changeMilestoneStrategy(
  ctx: AppContext,
  identity: Identity,
  ids: { id: string; milestoneId: string; strategyId: string },
  input: Static<typeof MilestoneStrategyBody>,
) {
  const { id, milestoneId, strategyId } = ids;
  const { after } = await editMilestones(ctx, identity, id, async (milestones, tx, project) => {
    const milestone = milestoneIn(milestones, id, milestoneId);
    const index = strategyIndex(milestone, ids);
    const position = milestone.strategies[index]!.sortOrder;
    const checked = await checkMilestoneStrategy(ctx, tx, input, position, project);
    milestone.strategies[index] = { ...checked, id: strategyId };
    milestone.strategies = inOrder(milestone.strategies);
  });
  return described(after, milestoneId).strategies.find((s) => s.id === strategyId)!;
}

export async function removeMilestoneStrategy(
  ctx: AppContext,
  identity: Identity,
  ids: { id: string; milestoneId: string; strategyId: string },
) {
  await editMilestones(ctx, identity, ids.id, async (milestones) => {
    const milestone = milestoneIn(milestones, ids.id, ids.milestoneId);
    milestone.strategies.splice(strategyIndex(milestone, ids), 1);
  });
}

function strategyIndex(milestone: Milestone, ids: { milestoneId: string; strategyId: string }): number {
  const index = milestone.strategies.findIndex((s) => s.id === ids.strategyId);
  if (index < 0) {
    throw new NotFoundError(
      `The milestone "${ids.milestoneId}" has no strategy with the id "${ids.strategyId}".`,
    );
  }
  return index;
}
