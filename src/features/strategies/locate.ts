import type { AppContext } from '../../app-context.js';
import type { Queryable, Transaction } from '../../db/database.js';
import type { ReadOptions } from '../../db/lock.js';
import { NoAccessError, NotFoundError } from '../../http/errors.js';
import type { FeatureModel } from '../../read-model/model.js';
import { describeStrategy } from '../core/service.js';
import type { FeatureEnvironmentPath } from '../environments/service.js';
import { type FeatureStrategy, findStrategy, rememberStrategy } from './store.js';

// A strategy found by the path that names it: its feature, environment and project must be the
// path's, whether it is read from the database, locked, or from the read model.

/**
 * The strategy of that id, if it is one of the path's feature in the path's environment: 404 when
 * there is no such strategy (or its feature is archived), 403 when it belongs elsewhere — a path
 * must not reach a strategy its permission check did not cover.
 */
export async function strategyAt(
  db: Queryable,
  at: FeatureEnvironmentPath,
  id: string,
  options: ReadOptions = {},
): Promise<FeatureStrategy> {
  const strategy = await findStrategy(db, id, options);
  if (!strategy) throw new NotFoundError(`There is no strategy with the id "${id}".`);
  return placed(strategy, at, id);
}

function placed(
  strategy: FeatureStrategy & { project: string; archived: boolean },
  at: FeatureEnvironmentPath,
  id: string,
): FeatureStrategy {
  if (
    strategy.project !== at.project ||
    strategy.featureName !== at.featureName ||
    strategy.environment !== at.environment
  ) {
    throw new NoAccessError(
      `The strategy "${id}" is not one of the feature "${at.featureName}" in the environment "${at.environment}" of the project "${at.project}".`,
    );
  }
  if (strategy.archived) {
    throw new NotFoundError(
      `The feature "${at.featureName}" is archived: revive it to change its strategies.`,
    );
  }
  return strategy;
}

/** One strategy of the path, from memory, with the refusals of `strategyAt`. */
export function readStrategy(model: FeatureModel, at: FeatureEnvironmentPath, id: string) {
  return describeStrategy(modelStrategyAt(model, at, id));
}

/** As strategyAt, from the read model. */
export function modelStrategyAt(
  model: FeatureModel,
  at: FeatureEnvironmentPath,
  id: string,
): FeatureStrategy {
  const found = model.strategy(id);
  if (!found) throw new NotFoundError(`There is no strategy with the id "${id}".`);
  return placed(
    { ...found.strategy, project: found.feature.project, archived: found.feature.archivedAt !== null },
    at,
    id,
  );
}

/** The path's strategy read locked for a change (404/403 as strategyAt); see `lockedFeature`. */
export function lockedStrategyAt(ctx: AppContext, tx: Transaction, at: FeatureEnvironmentPath, id: string) {
  const held = tx.writes === 'none' && ctx.sync.holdsEverythingNow() ? ctx.model.strategy(id) : undefined;
  if (held)
    rememberStrategy(tx, {
      ...held.strategy,
      project: held.feature.project,
      archived: held.feature.archivedAt !== null,
    });
  return strategyAt(tx, at, id, { lock: 'update' });
}
