import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { checkConstraints } from '../constraints/service.js';
import type { Queryable } from '../db/database.js';
import { assertStrategyType } from '../features/strategies/service.js';
import { prepareVariants } from '../features/variants/rules.js';
import { ValidationError } from '../http/errors.js';
import { checkStrategySegments } from '../segments/service.js';
import { normalizeParameters } from '../strategies/parameters.js';
import type { MilestoneBody, MilestoneStrategyBody } from './schemas.js';
import type { Milestone, MilestoneStrategy } from './store.js';
import { ulid } from './ulid.js';

// A template's milestones and their strategies as sent, checked by the rules of a flag's strategy
// (type, parameters, constraints, variants; segments of no project), each given a new id.

/** One strategy of a milestone; `position` is its place when the body gives no sort order. */
export async function checkMilestoneStrategy(
  ctx: AppContext,
  db: Queryable,
  input: Static<typeof MilestoneStrategyBody>,
  position: number,
  path = '',
): Promise<MilestoneStrategy> {
  const name = input.name ?? input.strategyName;
  if (!name) {
    throw new ValidationError('Each strategy of a milestone needs its type in `name`.', [
      { path: `${path}name`, message: 'Name the strategy type, e.g. "flexibleRollout".' },
    ]);
  }
  assertStrategyType(ctx.model, name);
  return {
    id: ulid(),
    sortOrder: input.sortOrder ?? position,
    name,
    title: input.title ?? null,
    disabled: input.disabled ?? false,
    parameters: normalizeParameters(
      name,
      input.parameters,
      { groupId: '', stickiness: 'default' },
      ctx.model.strategyDefinition(name),
    ),
    constraints: checkConstraints(ctx.model.contextRules(), input.constraints ?? []),
    variants: prepareVariants(input.variants ?? [], `${path}variants`),
    segments: await checkStrategySegments(db, input.segments ?? [], ''),
  };
}

export async function checkMilestone(
  ctx: AppContext,
  db: Queryable,
  input: Static<typeof MilestoneBody>,
  position: number,
  path = '',
): Promise<Milestone> {
  const strategies: MilestoneStrategy[] = [];
  for (const [s, strategy] of (input.strategies ?? []).entries()) {
    strategies.push(await checkMilestoneStrategy(ctx, db, strategy, s, `${path}strategies.${s}.`));
  }
  return {
    id: ulid(),
    name: input.name,
    sortOrder: input.sortOrder ?? position,
    strategies: inOrder(strategies),
  };
}

/** A template's milestones as sent: a save replaces them whole, with new ids, as in Unleash. */
export async function checkMilestones(
  ctx: AppContext,
  db: Queryable,
  input: readonly Static<typeof MilestoneBody>[] = [],
): Promise<Milestone[]> {
  const milestones: Milestone[] = [];
  for (const [m, milestone] of input.entries()) {
    milestones.push(await checkMilestone(ctx, db, milestone, m, `milestones.${m}.`));
  }
  return inOrder(milestones);
}

/** Milestones, or a milestone's strategies, by their sort order. */
export function inOrder<T extends { sortOrder: number }>(list: T[]): T[] {
  return list.sort((a, b) => a.sortOrder - b.sortOrder);
}
