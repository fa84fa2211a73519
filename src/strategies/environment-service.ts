import { randomUUID } from 'node:crypto';
import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { describeStrategy, getLiveFeature } from '../features/service.js';
import type { Feature } from '../features/store.js';
import { NotFoundError } from '../http/errors.js';
import { type Actor, actorOf, type Identity } from '../http/identity.js';
import { getProject } from '../projects/service.js';
import { findEnvironmentState, setEnvironmentEnabled } from './environment-store.js';
import { normalizeParameters } from './parameters.js';
import { insertStrategy, strategiesOf } from './store.js';

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
 * The live feature of the path and its state in the environment, or 404 for an unknown or
 * archived feature, one in another project, or an environment the feature does not have.
 * In a transaction the environment's row stays locked until it ends.
 */
export async function liveFeatureEnvironment(
  db: Queryable,
  at: FeatureEnvironmentPath,
  lock = false,
): Promise<{ feature: Feature; enabled: boolean }> {
  const feature = await getLiveFeature(db, at.project, at.featureName);
  const state = await findEnvironmentState(db, at.featureName, at.environment, lock);
  if (!state) throw noSuchEnvironment(at);
  return { feature, enabled: state.enabled };
}

/** The 404 of a path naming an environment its feature does not have. */
export function noSuchEnvironment(at: FeatureEnvironmentPath): NotFoundError {
  return new NotFoundError(
    `The feature "${at.featureName}" has no environment "${at.environment}": the environment does not exist or is not enabled for the project "${at.project}".`,
  );
}

/** The defaults of `flexibleRollout` and other types for this feature. */
export async function parameterDefaults(db: Queryable, at: FeatureEnvironmentPath) {
  const project = await getProject(db, at.project);
  return { groupId: at.featureName, stickiness: project.defaultStickiness || 'default' };
}

async function switchEnvironment(
  tx: Transaction,
  actor: Actor,
  at: FeatureEnvironmentPath,
  enabled: boolean,
) {
  await setEnvironmentEnabled(tx, at.featureName, at.environment, enabled);
  await recordEvent(tx, actor, {
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
  const state = await findEnvironmentState(tx, at.featureName, at.environment, true);
  if (state?.enabled) await switchEnvironment(tx, actor, at, false);
}

/**
 * `on` and `off`. Turning on an environment without strategies first adds a 100% gradual
 * rollout, as Unleash does. Events only when something changes.
 */
export async function switchFeatureEnvironment(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  enabled: boolean,
): Promise<void> {
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    const current = await liveFeatureEnvironment(tx, at, true);
    if (enabled && (await strategiesOf(tx, at.featureName, at.environment)).length === 0) {
      const id = randomUUID();
      await insertStrategy(tx, {
        id,
        featureName: at.featureName,
        environment: at.environment,
        name: 'flexibleRollout',
        title: null,
        disabled: false,
        parameters: normalizeParameters('flexibleRollout', {}, await parameterDefaults(tx, at)),
        constraints: [],
        variants: [],
        sortOrder: null,
      });
      const [added] = await strategiesOf(tx, at.featureName, at.environment);
      await recordEvent(tx, actor, {
        type: 'feature-strategy-add',
        project: at.project,
        featureName: at.featureName,
        environment: at.environment,
        data: describeStrategy(added!),
      });
    }
    if (current.enabled !== enabled) await switchEnvironment(tx, actor, at, enabled);
  });
}
