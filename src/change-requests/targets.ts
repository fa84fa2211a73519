import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { checkStrategySettings } from '../features/strategies/check-settings.js';
import type { CreateStrategyBody } from '../features/strategies/schemas.js';
import { NotFoundError } from '../http/errors.js';
import type { ChangeAction, StoredChange, Target } from './kinds/kinds.js';

// What a change names, checked when it is added: the strategy or segment it is about exists where
// it says, and a strategy it adds or changes keeps the rules of the direct change.

/** Refuses (404, 400) a change whose target is not there, or whose strategy breaks a rule. */
export function checkTarget(ctx: AppContext, target: Target, change: StoredChange): void {
  assertTargetExists(ctx, target, change);
  checkStrategyOf(ctx, target, change);
}

const STRATEGY_ACTIONS: readonly ChangeAction[] = [
  'addStrategy',
  'updateStrategy',
  'updateMilestoneStrategy',
];

/**
 * A strategy the change adds or changes is checked now, by the rules of the direct change (its
 * type, parameters, constraints, variants), rather than only when the request is applied. Its
 * segments are checked then.
 */
function checkStrategyOf(ctx: AppContext, target: Target, change: StoredChange): void {
  if (!STRATEGY_ACTIONS.includes(change.action)) return;
  const p = change.payload as Static<typeof CreateStrategyBody> & { id?: string };
  const name = p.name ?? (p.id !== undefined ? ctx.model.strategy(p.id)?.strategy.name : undefined);
  if (name === undefined) return;
  const stickiness = ctx.model.project(target.project)?.defaultStickiness ?? 'default';
  checkStrategySettings(ctx, { ...p, name }, stickiness);
}

/** A strategy or segment the change names exists where the change says. */
function assertTargetExists(ctx: AppContext, target: Target, change: StoredChange): void {
  if (change.action === 'updateStrategy' || change.action === 'deleteStrategy') {
    const id = change.payload.id as string;
    const found = ctx.model.strategy(id);
    if (found?.feature.name !== change.feature || found.strategy.environment !== target.environment) {
      throw new NotFoundError(
        `The flag "${change.feature}" has no strategy with the id "${id}" in the environment "${target.environment}".`,
      );
    }
  }
  if (change.action === 'updateSegment' || change.action === 'deleteSegment') {
    const id = change.payload.id as number;
    const segment = ctx.model.segment(id);
    if (!segment || (segment.project !== null && segment.project !== target.project)) {
      throw new NotFoundError(`No segment of the project "${target.project}" has the id ${id}.`);
    }
  }
}
