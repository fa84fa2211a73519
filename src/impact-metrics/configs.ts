import { randomUUID } from 'node:crypto';
import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError, ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { MODES_OF } from './aggregate.js';
import {
  type ChartConfig,
  countConfigs,
  deleteConfig,
  findConfig,
  listConfigs,
  saveConfig,
} from './config-store.js';
import { RANGES } from './query.js';
import type { ConfigInput } from './schemas.js';
import { findMetric } from './store.js';

/** Charts one owner (the instance, or a flag) keeps at most: each is a query every time it is drawn. */
const MAX_CHARTS = 50;

/** Whose a chart is: a flag's (with its project, for the audit log) or the instance's. */
export type ChartOwner = { project: string; feature: string } | null;

/** A name to show for a metric: its words, capitalised. */
export const displayNameOf = (metric: string) =>
  metric
    .replace(/_+/g, ' ')
    .trim()
    .replace(/^./, (c) => c.toUpperCase()) || metric;

export function describeConfig(c: ChartConfig) {
  return {
    id: c.id,
    metricName: c.metricName,
    displayName: c.title || displayNameOf(c.metricName),
    timeRange: c.timeRange,
    aggregationMode: c.aggregationMode,
    labelSelectors: c.labelSelectors,
    yAxisMin: c.yAxisMin,
    ...(c.title ? { title: c.title } : {}),
    source: c.source,
    mode: c.guarded ? ('read' as const) : ('write' as const),
    step: RANGES[c.timeRange].step,
    ...(c.featureName ? { feature: c.featureName } : {}),
  };
}

export async function readConfigs(db: Queryable, owner: ChartOwner) {
  return { configs: (await listConfigs(db, owner?.feature ?? null)).map(describeConfig) };
}

/** A query's aggregation must be one its metric's type has, when the metric is known. */
export async function checkQuery(db: Queryable, input: Pick<ConfigInput, 'metricName' | 'aggregationMode'>) {
  const metric = await findMetric(db, input.metricName);
  if (metric && !MODES_OF[metric.type].includes(input.aggregationMode)) {
    const modes = MODES_OF[metric.type].join(', ');
    throw new ValidationError(`"${metric.name}" is a ${metric.type}: it is aggregated by ${modes}.`, [
      { message: `aggregationMode must be one of ${modes}`, path: 'aggregationMode' },
    ]);
  }
}

/** Writes a chart's query as `id` (new or in place); what safeguards keep their metric query in. */
export async function writeQuery(tx: Transaction, id: string, feature: string | null, input: ConfigInput) {
  await checkQuery(tx, input);
  const config = {
    id,
    featureName: feature,
    metricName: input.metricName,
    timeRange: input.timeRange,
    aggregationMode: input.aggregationMode,
    labelSelectors: input.labelSelectors,
    yAxisMin: input.yAxisMin ?? 'auto',
    title: input.title ?? null,
    source: input.source ?? 'internal',
  };
  await saveConfig(tx, config);
  return config;
}

export { deleteConfig as deleteQuery } from './config-store.js';

/** The chart of the owner, for a change; 404 when it has no such chart, 400 when a safeguard owns it. */
async function ownChart(tx: Transaction, owner: ChartOwner, id: string): Promise<ChartConfig> {
  const found = await findConfig(tx, id);
  if (!found || found.featureName !== (owner?.feature ?? null)) {
    throw new NotFoundError(`There is no impact metric chart with the id "${id}" here.`);
  }
  if (found.guarded) {
    throw new ValidationError(`The chart "${id}" is a safeguard's: change or delete the safeguard instead.`);
  }
  return found;
}

const where = (owner: ChartOwner) => (owner ? { project: owner.project, featureName: owner.feature } : {});

export async function saveChart(ctx: AppContext, actor: Actor, owner: ChartOwner, input: ConfigInput) {
  return ctx.db.transaction(async (tx) => {
    const before = input.id ? await ownChart(tx, owner, input.id) : undefined;
    if (!before && (await countConfigs(tx, owner?.feature ?? null)) >= MAX_CHARTS) {
      throw new ValidationError(`There are ${MAX_CHARTS} charts here already, the most there may be.`);
    }
    const saved = await writeQuery(tx, before?.id ?? randomUUID(), owner?.feature ?? null, input);
    const config = describeConfig({ ...saved, guarded: false });
    recordEvent(tx, actor, {
      type: before ? 'impact-metric-updated' : 'impact-metric-created',
      ...where(owner),
      data: config,
      ...(before ? { preData: describeConfig(before) } : {}),
    });
    return config;
  });
}

export async function deleteChart(
  ctx: AppContext,
  actor: Actor,
  owner: ChartOwner,
  id: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await ownChart(tx, owner, id);
    await deleteConfig(tx, id);
    recordEvent(tx, actor, {
      type: 'impact-metric-deleted',
      ...where(owner),
      preData: describeConfig(before),
    });
  });
}
