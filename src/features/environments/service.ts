import type { Queryable, Transaction } from '../../db/database.js';
import type { ReadOptions } from '../../db/lock.js';
import { recordEvent } from '../../events/service.js';
import { NotFoundError } from '../../http/errors.js';
import type { Actor } from '../../http/identity.js';
import type { FeatureModel } from '../../read-model/model.js';
import { normalizeParameters, type ParameterDefaults } from '../../strategies/parameters.js';
import { getLiveFeature, getModelFeature } from '../core/service.js';
import { strategiesOf } from '../strategies/queries.js';
import {
  type EnvironmentStrategies,
  findEnvironmentState,
  findFeatureEnvironment,
  setEnvironmentEnabled,
} from './store.js';

/** A feature's environment named in a path: project, feature and environment. */
export interface FeatureEnvironmentPath {
  project: string;
  featureName: string;
  environment: string;
}

/** The path's parameters `:projectId`, `:featureName` and `:environment`. */
export function featureEnvironmentPath(params: {
  projectId: string;
  featureName: string;
  environment: string;
}): FeatureEnvironmentPath {
  return { project: params.projectId, featureName: params.featureName, environment: params.environment };
}

/**
 * The state of the path's live feature in the environment (on or off, with strategies or not), or
 * 404 for an unknown or archived feature, one in another project, or an environment the feature
 * does not have. One statement; a lock is taken on the environment's row.
 */
export async function liveFeatureEnvironment(
  db: Queryable,
  at: FeatureEnvironmentPath,
  options: ReadOptions = {},
): Promise<EnvironmentStrategies> {
  const found = await findFeatureEnvironment(db, at.featureName, at.environment, options);
  if (found && found.project === at.project && !found.archived) {
    if (found.environment) return found.environment;
    throw noSuchEnvironment(at);
  }
  // The rare refusals: the feature's own read words them (unknown, archived, another project).
  await getLiveFeature(db, at.project, at.featureName);
  throw noSuchEnvironment(at);
}

/** As liveFeatureEnvironment, from the read model. */
export function modelFeatureEnvironment(
  model: FeatureModel,
  at: FeatureEnvironmentPath,
): EnvironmentStrategies {
  const feature = getModelFeature(model, at.project, at.featureName);
  const state = feature.environments.find((e) => e.name === at.environment);
  if (!state) throw noSuchEnvironment(at);
  const here = feature.strategies.filter((s) => s.environment === at.environment);
  return {
    enabled: state.enabled,
    hasStrategies: here.length > 0,
    hasActiveStrategies: here.some((s) => !s.disabled),
    hasDisabledStrategies: here.some((s) => s.disabled),
  };
}

/** The 404 of a path naming an environment its feature does not have. */
export function noSuchEnvironment(at: FeatureEnvironmentPath): NotFoundError {
  return new NotFoundError(
    `The feature "${at.featureName}" has no environment "${at.environment}": the environment does not exist or is not enabled for the project "${at.project}".`,
  );
}

/** The defaults of `flexibleRollout` for this feature: the project's stickiness, from memory. */
export function parameterDefaults(model: FeatureModel, at: FeatureEnvironmentPath) {
  return { groupId: at.featureName, stickiness: model.project(at.project)?.defaultStickiness || 'default' };
}

/**
 * What an environment switched on without any strategy gets, as in Unleash: a gradual rollout to
 * everyone, so that it is on for all and the rollout can be narrowed later.
 */
export function defaultRollout(defaults: ParameterDefaults) {
  return {
    name: 'flexibleRollout',
    title: null,
    disabled: false,
    parameters: normalizeParameters('flexibleRollout', {}, defaults),
    constraints: [],
    variants: [],
  };
}

/** Switches the environment on or off, with its event (the caller checked that it changes). */
export async function switchEnvironment(
  tx: Transaction,
  actor: Actor,
  at: FeatureEnvironmentPath,
  enabled: boolean,
) {
  await setEnvironmentEnabled(tx, at.featureName, at.environment, enabled);
  recordEvent(tx, actor, {
    type: enabled ? 'feature-environment-enabled' : 'feature-environment-disabled',
    project: at.project,
    featureName: at.featureName,
    environment: at.environment,
    data: { enabled },
    preData: { enabled: !enabled },
  });
}

/**
 * After a strategy is changed or removed: an environment left without an active strategy is
 * switched off, so that it does not fall back to "on for everyone".
 */
export async function switchOffWithoutActiveStrategy(
  tx: Transaction,
  actor: Actor,
  at: FeatureEnvironmentPath,
): Promise<void> {
  const strategies = await strategiesOf(tx, at.featureName, at.environment);
  if (strategies.some((s) => !s.disabled)) return;
  const state = await findEnvironmentState(tx, at.featureName, at.environment, { lock: 'update' });
  if (state?.enabled) await switchEnvironment(tx, actor, at, false);
}
