import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import type { Transaction } from '../../db/database.js';
import { recordEvent } from '../../events/service.js';
import { type FeatureEnvironmentPath, liveFeatureEnvironment } from '../../features/environments/service.js';
import { NotFoundError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import { deleteQuery, writeQuery } from '../../impact-metrics/configs.js';
import { planAt } from '../service.js';
import type { CreateSafeguardBody } from './schemas.js';
import {
  deleteSafeguard,
  insertSafeguard,
  type Safeguard,
  safeguardOfEnvironment,
  safeguardOfPlan,
  updateCondition,
} from './store.js';
import { describeSafeguard } from './views.js';

export type SafeguardInput = Static<typeof CreateSafeguardBody>;

const eventAt = (at: FeatureEnvironmentPath) => ({
  project: at.project,
  featureName: at.featureName,
  environment: at.environment,
});

/**
 * Writes the safeguard in place of the one there was (or as the first): its metric query is kept
 * as a chart of the flag, which only the safeguard changes. A changed safeguard starts afresh.
 */
async function putSafeguard(
  tx: Transaction,
  identity: Identity,
  at: FeatureEnvironmentPath,
  before: Safeguard | undefined,
  releasePlanId: string | null,
  input: SafeguardInput,
): Promise<void> {
  const configId = before?.configId ?? randomUUID();
  const { metricName, timeRange, aggregationMode, labelSelectors, source } = input.impactMetric;
  await writeQuery(tx, configId, at.featureName, {
    metricName,
    timeRange,
    aggregationMode,
    labelSelectors,
    source,
  });
  const { operator, threshold } = input.triggerCondition;
  const id = before?.id ?? randomUUID();
  if (before) await updateCondition(tx, id, operator, threshold);
  else {
    await insertSafeguard(tx, {
      id,
      configId,
      releasePlanId,
      featureName: at.featureName,
      environment: at.environment,
      operator,
      threshold,
    });
  }
  const after = releasePlanId
    ? await safeguardOfPlan(tx, releasePlanId)
    : await safeguardOfEnvironment(tx, at.featureName, at.environment);
  recordEvent(tx, actorOf(identity), {
    type: 'safeguard-changed',
    ...eventAt(at),
    data: describeSafeguard(after!, at.project),
    ...(before ? { preData: describeSafeguard(before, at.project) } : {}),
  });
}

async function removeSafeguard(
  tx: Transaction,
  identity: Identity,
  at: FeatureEnvironmentPath,
  found: Safeguard | undefined,
  id: string,
): Promise<void> {
  if (found?.id !== id) throw new NotFoundError(`There is no safeguard with the id "${id}" here.`);
  await deleteSafeguard(tx, id);
  await deleteQuery(tx, found.configId);
  recordEvent(tx, actorOf(identity), {
    type: 'safeguard-deleted',
    ...eventAt(at),
    preData: describeSafeguard(found, at.project),
  });
}

/** The release plan's safeguard: when it trips, the plan's progressions pause. */
export async function changePlanSafeguard(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  planId: string,
  input: SafeguardInput,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const plan = await planAt(tx, at, planId);
    await putSafeguard(tx, identity, at, await safeguardOfPlan(tx, plan.id), plan.id, input);
  });
}

export async function deletePlanSafeguard(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  planId: string,
  safeguardId: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const plan = await planAt(tx, at, planId);
    await removeSafeguard(tx, identity, at, await safeguardOfPlan(tx, plan.id), safeguardId);
  });
}

/** The flag environment's safeguard: when it trips, the flag is switched off there. */
export async function changeEnvironmentSafeguard(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  input: SafeguardInput,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await liveFeatureEnvironment(tx, at, { lock: 'update' });
    const before = await safeguardOfEnvironment(tx, at.featureName, at.environment);
    await putSafeguard(tx, identity, at, before, null, input);
  });
}

export async function deleteEnvironmentSafeguard(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  safeguardId: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await liveFeatureEnvironment(tx, at, { lock: 'update' });
    const found = await safeguardOfEnvironment(tx, at.featureName, at.environment);
    await removeSafeguard(tx, identity, at, found, safeguardId);
  });
}
