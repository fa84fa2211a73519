import type { AppContext } from '../../app-context.js';
import { recordEvent } from '../../events/service.js';
import {
  type FeatureEnvironmentPath,
  liveFeatureEnvironment,
  switchEnvironment,
} from '../../features/environments/service.js';
import { SYSTEM_ACTOR } from '../../http/identity.js';
import { measureExternal } from '../../impact-metrics/external.js';
import { type MetricQuery, measure } from '../../impact-metrics/query.js';
import { ensureJob } from '../../jobs/queue.js';
import { pauseProgressions, progressing } from '../progression.js';
import { allSafeguards, markTriggered, rearm, type Safeguard } from './store.js';
import { describeSafeguard } from './views.js';

/** The one recurring job that checks every safeguard: whichever process claims it, once per interval. */
export const SAFEGUARD_JOB = 'safeguard-check';

/** Registers the check on this process and makes sure the job exists (the first process to start makes it). */
export async function checkSafeguards(ctx: AppContext): Promise<void> {
  ctx.jobs.register(SAFEGUARD_JOB, {
    run: () => checkAll(ctx),
    everyMs: ctx.config.safeguardCheckIntervalMs,
  });
  await ensureJob(ctx.db, SAFEGUARD_JOB, 'all', new Date());
}

async function checkAll(ctx: AppContext): Promise<void> {
  for (const s of await allSafeguards(ctx.db)) await checkOne(ctx, s);
}

/** Whether what the safeguard guards runs: the plan progressing, or the flag on in the environment. */
async function guardedRuns(ctx: AppContext, s: Safeguard, at: FeatureEnvironmentPath): Promise<boolean> {
  if (s.releasePlanId) return (await progressing(ctx.db, s.releasePlanId)) === true;
  return (await liveFeatureEnvironment(ctx.db, at)).enabled;
}

/** An external source that does not answer leaves the safeguard as it is, until the next check. */
async function externally(ctx: AppContext, s: Safeguard, query: MetricQuery): Promise<number | undefined> {
  try {
    return await measureExternal(ctx, query, s.armedAt);
  } catch (error) {
    ctx.log.warn(
      { err: error, safeguard: s.id },
      'safeguards: the external source of impact metrics did not answer',
    );
    return undefined;
  }
}

const passes = (s: Safeguard, value: number) =>
  s.operator === '>' ? value > s.threshold : value < s.threshold;

/**
 * A safeguard acts once: when its metric, from when it was armed, passes the threshold while what
 * it guards runs. Once that was resumed (or switched on again), it watches again from then.
 */
async function checkOne(ctx: AppContext, s: Safeguard): Promise<void> {
  const feature = ctx.model.feature(s.featureName);
  if (!feature || feature.archivedAt) return;
  const at = { project: feature.project, featureName: s.featureName, environment: s.environment };
  const runs = await guardedRuns(ctx, s, at);
  if (s.triggeredAt) {
    if (runs) await ctx.db.transaction((tx) => rearm(tx, s.id));
    return;
  }
  if (!runs) return;
  const query = {
    metricName: s.metricName,
    range: s.timeRange,
    aggregationMode: s.aggregationMode,
    selectors: s.labelSelectors,
  };
  const value =
    s.source === 'external' ? await externally(ctx, s, query) : await measure(ctx.db, query, s.armedAt);
  if (value === undefined || !passes(s, value)) return;
  const reason = `${s.metricName} (${s.aggregationMode}, last ${s.timeRange}) was ${value}: ${s.operator} ${s.threshold}`;
  await ctx.db.transaction(async (tx) => {
    if (!(await markTriggered(tx, s.id))) return;
    recordEvent(tx, SYSTEM_ACTOR, {
      type: 'safeguard-triggered',
      ...at,
      data: { ...describeSafeguard(s, at.project), value, reason },
    });
    if (s.releasePlanId) {
      await pauseProgressions(tx, at.project, s.releasePlanId, `Safeguard: ${reason}`);
    } else {
      const state = await liveFeatureEnvironment(tx, at, { lock: 'update' });
      if (state.enabled) await switchEnvironment(tx, SYSTEM_ACTOR, at, false);
    }
  });
}
