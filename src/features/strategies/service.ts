import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import type { Constraint } from '../../constraints/rules.js';
import { checkConstraints } from '../../constraints/service.js';
import type { Queryable, Transaction } from '../../db/database.js';
import { recordEvent } from '../../events/service.js';
import { ValidationError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import type { FeatureModel } from '../../read-model/model.js';
import { strategyPatch } from '../../read-model/patches.js';
import { checkStrategySegments } from '../../segments/service.js';
import { normalizeParameters } from '../../strategies/parameters.js';
import { markPatched } from '../../sync/changes.js';
import { describeStrategy, getModelFeature, unlessItChanges } from '../core/service.js';
import {
  type FeatureEnvironmentPath,
  liveFeatureEnvironment,
  noSuchEnvironment,
  parameterDefaults,
  switchOffWithoutActiveStrategy,
} from '../environments/service.js';
import { prepareVariants, type Variant } from '../variants/rules.js';
import { lockedStrategyAt, modelStrategyAt, strategyAt } from './locate.js';
import type { CreateStrategyBody, UpdateStrategyBody } from './schemas.js';
import { setStrategySegments } from './segment-store.js';
import { deleteStrategy, type FeatureStrategy, insertStrategy, updateStrategy } from './store.js';

export function assertStrategyType(model: FeatureModel, name: string): void {
  if (model.strategyDefinition(name)) return;
  throw new ValidationError(
    `There is no strategy type "${name}": use default, flexibleRollout, userWithId, applicationHostname or remoteAddress (GET /api/admin/strategies lists them).`,
    [{ path: 'name', message: 'Unknown strategy type.' }],
  );
}

/**
 * Parameters as stored, checked against a custom type's declared parameters; only
 * `flexibleRollout` needs the project's default stickiness.
 */
function parametersFor(
  model: FeatureModel,
  at: FeatureEnvironmentPath,
  strategyType: string,
  input: Parameters<typeof normalizeParameters>[1],
) {
  const defaults =
    strategyType === 'flexibleRollout'
      ? parameterDefaults(model, at)
      : { groupId: at.featureName, stickiness: 'default' };
  return normalizeParameters(strategyType, input, defaults, model.strategyDefinition(strategyType));
}

/** The strategies of the path's feature in its environment, from memory. */
export function readStrategies(model: FeatureModel, at: FeatureEnvironmentPath) {
  const feature = getModelFeature(model, at.project, at.featureName);
  if (!feature.environments.some((e) => e.name === at.environment)) throw noSuchEnvironment(at);
  return feature.strategies.filter((s) => s.environment === at.environment).map(describeStrategy);
}

/**
 * The body rules (400) that do not depend on the strategy being changed: strategy types and
 * context fields as the read model holds them; segments read in `db` (the caller's transaction).
 */
async function checkedConfig(
  db: Queryable,
  model: FeatureModel,
  at: FeatureEnvironmentPath,
  input: Static<typeof UpdateStrategyBody>,
) {
  if (input.name !== undefined) assertStrategyType(model, input.name);
  return {
    constraints: checkConstraints(model.contextRules(at.project), input.constraints ?? []),
    variants: prepareVariants(input.variants ?? [], 'variants'),
    segments: input.segments && (await checkStrategySegments(db, input.segments, at.project)),
  };
}

type StrategyConfig = Pick<
  FeatureStrategy,
  'name' | 'title' | 'disabled' | 'parameters' | 'constraints' | 'variants'
>;

/** Whether a new configuration (and segment list, when one was sent) is what is stored already. */
function unchanged(before: FeatureStrategy, config: StrategyConfig, segments: number[] | undefined): boolean {
  const stored = {
    name: before.name,
    title: before.title,
    disabled: before.disabled,
    parameters: before.parameters,
    constraints: before.constraints,
    variants: before.variants,
  };
  return (
    isDeepStrictEqual(JSON.parse(JSON.stringify(config)), stored) &&
    (segments === undefined || segments.join() === before.segments.join())
  );
}

export function eventOf(at: FeatureEnvironmentPath) {
  return { project: at.project, featureName: at.featureName, environment: at.environment };
}

export async function addStrategy(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  input: Static<typeof CreateStrategyBody>,
) {
  const actor = actorOf(identity);
  return ctx.db.transaction(async (tx) => {
    const { constraints, variants, segments } = await checkedConfig(tx, ctx.model, at, input);
    await liveFeatureEnvironment(tx, at, { lock: 'update' });
    const config = {
      id: randomUUID(),
      featureName: at.featureName,
      environment: at.environment,
      name: input.name,
      title: input.title ?? null,
      disabled: input.disabled ?? false,
      parameters: parametersFor(ctx.model, at, input.name, input.parameters),
      constraints,
      variants,
    };
    const placed = await insertStrategy(tx, { ...config, sortOrder: input.sortOrder ?? null });
    if (segments?.length) await setStrategySegments(tx, config.id, segments);
    const data = describeStrategy({ ...config, ...placed, segments: segments ?? [] });
    recordEvent(tx, actor, { type: 'feature-strategy-add', ...eventOf(at), data });
    return data;
  });
}

type StrategyUpdate = Static<typeof UpdateStrategyBody>;

/** A strategy's configuration after an E11 update (of the checked constraints and variants). */
function configAfter(
  model: FeatureModel,
  at: FeatureEnvironmentPath,
  input: StrategyUpdate,
  before: FeatureStrategy,
  checked: { constraints: Constraint[]; variants: Variant[] },
) {
  const name = input.name ?? before.name;
  return {
    name,
    title: input.title ?? before.title,
    disabled: input.disabled ?? before.disabled,
    parameters: parametersFor(model, at, name, input.parameters),
    constraints: checked.constraints,
    variants: checked.variants,
  };
}

/**
 * E11 in the caller's transaction, on the strategy read locked (`before`): the new configuration
 * with its `feature-strategy-update` event, and the environment switched off when no active
 * strategy is left. An update that changes nothing writes and records nothing.
 */
export async function updateStrategyIn(
  tx: Transaction,
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  before: FeatureStrategy,
  input: StrategyUpdate,
) {
  const actor = actorOf(identity);
  const { constraints, variants, segments } = await checkedConfig(tx, ctx.model, at, input);
  const config = configAfter(ctx.model, at, input, before, { constraints, variants });
  if (unchanged(before, config, segments)) return describeStrategy(before);
  await updateStrategy(tx, before.id, config);
  markPatched(tx, at.featureName, strategyPatch(before.id, config));
  if (segments && segments.join() !== before.segments.join())
    await setStrategySegments(tx, before.id, segments);
  const data = describeStrategy({ ...before, ...config, segments: segments ?? before.segments });
  recordEvent(tx, actor, {
    type: 'feature-strategy-update',
    ...eventOf(at),
    data,
    preData: describeStrategy(before),
  });
  if (config.disabled) await switchOffWithoutActiveStrategy(tx, actor, at);
  return data;
}

/**
 * E11: the configuration is replaced — parameters, constraints and variants become what was sent
 * (omitted: empty). The type changes when given; title and disabled when given and not null;
 * segments when given. The position never changes here (see set-sort-order).
 */
export async function replaceStrategy(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  id: string,
  input: StrategyUpdate,
) {
  // Worked out against the strategy as it is first: a PUT that changes nothing needs no lock and
  // no write, and answers as if it ran at that moment.
  const checked = await checkedConfig(ctx.db, ctx.model, at, input);
  const current = await unlessItChanges(
    ctx,
    (model) => modelStrategyAt(model, at, id),
    (db) => strategyAt(db, at, id),
    (strategy) =>
      !unchanged(strategy, configAfter(ctx.model, at, input, strategy, checked), checked.segments),
  );
  if (current) return describeStrategy(current);
  return ctx.db.transaction(async (tx) =>
    updateStrategyIn(tx, ctx, identity, at, await lockedStrategyAt(ctx, tx, at, id), input),
  );
}

export async function removeStrategy(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  id: string,
): Promise<void> {
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    const before = await strategyAt(tx, at, id, { lock: 'update' });
    await deleteStrategy(tx, id);
    recordEvent(tx, actor, {
      type: 'feature-strategy-remove',
      ...eventOf(at),
      preData: describeStrategy(before),
    });
    await switchOffWithoutActiveStrategy(tx, actor, at);
  });
}
