import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { checkStrategySettings } from '../features/strategies/check-settings.js';
import { ValidationError } from '../http/errors.js';
import { checkStrategySegments, distinctSegmentIds } from '../segments/service.js';
import type { MilestoneBody, MilestoneStrategyBody } from './schemas.js';
import type { Milestone, MilestoneStrategy } from './store.js';
import { ulid } from './ulid.js';

// A template's milestones and their strategies as sent, checked by the rules of a flag's strategy
// (type, parameters, constraints, variants; segments of no project, or of the template's project),
// each given a new id. `project` is the template's ('' when it has none). The segments of all the
// strategies saved are looked up at once.

/** One strategy of a milestone; `position` is its place when the body gives no sort order. */
export async function checkMilestoneStrategy(
  ctx: AppContext,
  db: Queryable,
  input: Static<typeof MilestoneStrategyBody>,
  position: number,
  project: string,
): Promise<MilestoneStrategy> {
  const strategy = milestoneStrategy(ctx, input, position, '');
  await checkStrategySegments(db, strategy.segments, project);
  return strategy;
}

export async function checkMilestone(
  ctx: AppContext,
  db: Queryable,
  input: Static<typeof MilestoneBody>,
  position: number,
  project: string,
): Promise<Milestone> {
  const milestone = milestoneOf(ctx, input, position, '');
  await checkSegmentsOf(db, [milestone], project);
  return milestone;
}

/** A template's milestones as sent: a save replaces them whole, with new ids, as in Unleash. */
export async function checkMilestones(
  ctx: AppContext,
  db: Queryable,
  input: readonly Static<typeof MilestoneBody>[] | undefined,
  project: string,
): Promise<Milestone[]> {
  const milestones = (input ?? []).map((milestone, m) => milestoneOf(ctx, milestone, m, `milestones.${m}.`));
  await checkSegmentsOf(db, milestones, project);
  return inOrder(milestones);
}

/** Milestones, or a milestone's strategies, by their sort order. */
export function inOrder<T extends { sortOrder: number }>(list: T[]): T[] {
  return list.sort((a, b) => a.sortOrder - b.sortOrder);
}

function milestoneOf(
  ctx: AppContext,
  input: Static<typeof MilestoneBody>,
  position: number,
  path: string,
): Milestone {
  const strategies = (input.strategies ?? []).map((strategy, s) =>
    milestoneStrategy(ctx, strategy, s, `${path}strategies.${s}.`),
  );
  return {
    id: ulid(),
    name: input.name,
    sortOrder: input.sortOrder ?? position,
    strategies: inOrder(strategies),
  };
}

function milestoneStrategy(
  ctx: AppContext,
  input: Static<typeof MilestoneStrategyBody>,
  position: number,
  path: string,
): MilestoneStrategy {
  const name = input.name ?? input.strategyName;
  if (!name) {
    throw new ValidationError('Each strategy of a milestone needs its type in `name`.', [
      { path: `${path}name`, message: 'Name the strategy type, e.g. "flexibleRollout".' },
    ]);
  }
  return {
    id: ulid(),
    sortOrder: input.sortOrder ?? position,
    ...checkStrategySettings(ctx, { ...input, name }, 'default', path),
    segments: distinctSegmentIds(input.segments ?? []),
  };
}

async function checkSegmentsOf(
  db: Queryable,
  milestones: readonly Milestone[],
  project: string,
): Promise<void> {
  const ids = milestones.flatMap((m) => m.strategies.flatMap((s) => s.segments));
  await checkStrategySegments(db, ids, project);
}
