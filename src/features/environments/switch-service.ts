import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import type { Queryable, Transaction } from '../../db/database.js';
import { recordEvent } from '../../events/service.js';
import { NotFoundError, ValidationError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import { assertPermission } from '../../http/permissions.js';
import { findProjectDefaultStrategy, getProject, projectEnvironmentNames } from '../../projects/service.js';
import type { FeatureModel } from '../../read-model/model.js';
import { checkStrategySegments } from '../../segments/service.js';
import { normalizeParameters } from '../../strategies/parameters.js';
import { describeStrategy, unlessItChanges } from '../core/service.js';
import { strategiesOf } from '../strategies/queries.js';
import { insertStrategy, setStrategySegments, updateStrategy } from '../strategies/writes.js';
import {
  defaultRollout,
  type FeatureEnvironmentPath,
  liveFeatureEnvironment,
  modelFeatureEnvironment,
  parameterDefaults,
  switchEnvironment,
} from './service.js';

/**
 * What another room does when an environment without an active strategy is switched on, in the
 * switch's transaction (a release plan not started yet starts): true when the environment then
 * serves something, so that no default strategy is added beside it.
 */
export type SwitchOnHook = (
  tx: Transaction,
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
) => Promise<boolean>;

const switchOnHooks = new Set<SwitchOnHook>();

/** Registers a hook (once, however many times it is registered). */
export function whenSwitchedOn(hook: SwitchOnHook): void {
  switchOnHooks.add(hook);
}

export interface SwitchOptions {
  /** Turning on also enables the environment's disabled strategies (Unleash's query parameter). */
  activateDisabledStrategies?: boolean;
}

/**
 * The strategy an environment switched on without an active one gets: the project's default for
 * the environment (its empty flexibleRollout group id becoming the feature's name), or else a
 * gradual rollout to everyone.
 */
export async function strategyToAdd(db: Queryable, model: FeatureModel, at: FeatureEnvironmentPath) {
  const defaults = parameterDefaults(model, at);
  const projectDefault = await findProjectDefaultStrategy(db, at.project, at.environment);
  if (!projectDefault) return { ...defaultRollout(defaults), segments: [] as number[] };
  let segments: number[] = [];
  try {
    segments = await checkStrategySegments(db, projectDefault.segments, at.project);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(
      `The default strategy of the project "${at.project}" in "${at.environment}" cannot be added: ${error.message} ` +
        'Set it again with POST /api/admin/projects/:projectId/environments/:environment/default-strategy.',
    );
  }
  return {
    name: projectDefault.name,
    title: projectDefault.title,
    disabled: projectDefault.disabled,
    parameters: normalizeParameters(projectDefault.name, projectDefault.parameters, defaults),
    constraints: projectDefault.constraints,
    variants: projectDefault.variants,
    segments,
  };
}

/** Enables the environment's disabled strategies, each with its `feature-strategy-update` event. */
async function activateStrategies(tx: Transaction, identity: Identity, at: FeatureEnvironmentPath) {
  for (const before of await strategiesOf(tx, at.featureName, at.environment)) {
    if (!before.disabled) continue;
    const after = { ...before, disabled: false };
    await updateStrategy(tx, before.id, after);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-strategy-update',
      project: at.project,
      featureName: at.featureName,
      environment: at.environment,
      data: describeStrategy(after),
      preData: describeStrategy(before),
    });
  }
}

/**
 * One feature's environment on or off, in the caller's transaction. Turning on an environment
 * without an active strategy first adds one (see strategyToAdd), as Unleash does — which takes the
 * permission to add strategies there. Events only for what changes.
 */
async function switchIn(
  tx: Transaction,
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  enabled: boolean,
  options: SwitchOptions,
): Promise<void> {
  const current = await liveFeatureEnvironment(tx, at, { lock: 'update' });
  if (enabled) {
    let active = current.hasActiveStrategies;
    if (options.activateDisabledStrategies && current.hasDisabledStrategies) {
      await activateStrategies(tx, identity, at);
      active = true;
    }
    for (const hook of switchOnHooks) if (!active) active = await hook(tx, ctx, identity, at);
    if (!active) {
      assertPermission(identity, 'CREATE_FEATURE_STRATEGY', {
        project: at.project,
        environment: at.environment,
      });
      const { segments, ...config } = await strategyToAdd(tx, ctx.model, at);
      const id = randomUUID();
      const placed = await insertStrategy(tx, {
        id,
        featureName: at.featureName,
        environment: at.environment,
        ...config,
        sortOrder: null,
      });
      if (segments.length > 0) await setStrategySegments(tx, id, segments);
      recordEvent(tx, actorOf(identity), {
        type: 'feature-strategy-add',
        project: at.project,
        featureName: at.featureName,
        environment: at.environment,
        data: describeStrategy({ id, featureName: at.featureName, ...config, ...placed, segments }),
      });
    }
  }
  if (current.enabled !== enabled) await switchEnvironment(tx, actorOf(identity), at, enabled);
}

/** `on` and `off` of one feature in one environment. */
export async function switchFeatureEnvironment(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  enabled: boolean,
  options: SwitchOptions = {},
): Promise<void> {
  // Worked out against the environment as it is first: a switch that changes nothing (the bench of
  // every script that "makes sure" a flag is on) needs no lock and no write.
  const settled = (now: { enabled: boolean; hasActiveStrategies: boolean; hasDisabledStrategies: boolean }) =>
    now.enabled === enabled &&
    (!enabled ||
      (now.hasActiveStrategies && !(options.activateDisabledStrategies && now.hasDisabledStrategies)));
  const unchanged = await unlessItChanges(
    ctx,
    (model) => modelFeatureEnvironment(model, at),
    (db) => liveFeatureEnvironment(db, at),
    (now) => !settled(now),
  );
  if (unchanged) return;
  await ctx.db.transaction((tx) => switchIn(tx, ctx, identity, at, enabled, options));
}

/**
 * `on` and `off` of several features of a project in one environment, in one transaction: each as
 * the single switch does it (its strategy added, its permission, its events); one feature that
 * cannot be switched refuses the whole list. Features are locked by name, so two lists cannot deadlock.
 */
export async function switchFeatures(
  ctx: AppContext,
  identity: Identity,
  project: string,
  environment: string,
  names: readonly string[],
  enabled: boolean,
  options: SwitchOptions = {},
): Promise<void> {
  const sorted = [...new Set(names)].sort();
  await ctx.db.transaction(async (tx) => {
    await getProject(tx, project);
    if (!(await projectEnvironmentNames(tx, project)).includes(environment)) {
      throw new NotFoundError(
        `The project "${project}" has no environment "${environment}": add it to the project first.`,
      );
    }
    for (const featureName of sorted) {
      await switchIn(tx, ctx, identity, { project, featureName, environment }, enabled, options);
    }
  });
}
