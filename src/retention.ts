import { deleteFinishedDeliveriesBefore } from './addons/pruning.js';
import type { AppContext } from './app-context.js';
import { deleteApplicationsNotSeenSince, deleteInstancesNotSeenSince } from './applications/pruning.js';
import { deleteSpentResetTokens } from './auth/reset-service.js';
import type { SdkLimits } from './config.js';
import type { Queryable } from './db/database.js';
import { deleteExpiredSessions } from './identity/sessions.js';
import { deleteOldImpactMetrics } from './impact-metrics/pruning.js';
import { deleteEndedJobsBefore } from './jobs/queue.js';
import { deleteHourlyCountsBefore, deleteUnknownFlagsSeenBefore } from './metrics/pruning.js';
import { deleteSpentLogins } from './oidc/pruning.js';
import { pruneConfigChanges } from './sync/pruning.js';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const FIRST_RUN_MS = 30 * 1000;
const INTERVAL_MS = 10 * MINUTE_MS;

/** A process further behind than the newest change records reloads everything: keep plenty. */
const CONFIG_CHANGES_KEPT = 1000;

/** What is forgotten and when: rows nothing reads any more, so tables do not grow forever. */
const RULES: { what: string; prune: (db: Queryable, now: number, sdk: SdkLimits) => Promise<number> }[] = [
  {
    // E20 shows 48 hours at most.
    what: 'hourly usage counts older than 48 hours',
    prune: (db, now) => deleteHourlyCountsBefore(db, new Date(now - 48 * HOUR_MS)),
  },
  {
    what: 'sessions expired more than a day ago',
    prune: (db, now) => deleteExpiredSessions(db, new Date(now - DAY_MS)),
  },
  {
    what: 'reset tokens expired or used more than a day ago',
    prune: (db, now) => deleteSpentResetTokens(db, new Date(now - DAY_MS)),
  },
  {
    what: 'OpenID Connect sign-ins expired more than a day ago',
    prune: (db, now) => deleteSpentLogins(db, new Date(now - DAY_MS)),
  },
  {
    what: 'SDK instances not seen for SDK_INSTANCE_RETENTION_HOURS',
    prune: (db, now, sdk) =>
      deleteInstancesNotSeenSince(db, new Date(now - sdk.instanceRetentionHours * HOUR_MS)),
  },
  {
    what: 'applications no SDK reported for SDK_APPLICATION_RETENTION_DAYS (not those an Admin saved)',
    prune: (db, now, sdk) =>
      deleteApplicationsNotSeenSince(db, new Date(now - sdk.applicationRetentionDays * DAY_MS)),
  },
  {
    // Unleash shows the unknown flags of the last 24 hours.
    what: 'unknown flags not reported for 24 hours',
    prune: (db, now) => deleteUnknownFlagsSeenBefore(db, new Date(now - DAY_MS)),
  },
  {
    what: 'integration deliveries finished more than a week ago',
    prune: (db, now) => deleteFinishedDeliveriesBefore(db, new Date(now - 7 * DAY_MS)),
  },
  {
    // What Admins look back on at /api/admin/jobs: why a schedule did not happen.
    what: 'jobs ended more than 30 days ago',
    prune: (db, now) => deleteEndedJobsBefore(db, new Date(now - 30 * DAY_MS)),
  },
  {
    // Charts of an hour or a day read minutes; longer ones (up to six months) read hours.
    what: 'impact metric minutes older than 2 days, hours older than 183 days, series not reported for 183 days',
    prune: (db, now) =>
      deleteOldImpactMetrics(db, {
        minutes: new Date(now - 2 * DAY_MS),
        hours: new Date(now - 183 * DAY_MS),
        series: new Date(now - 183 * DAY_MS),
      }),
  },
  {
    what: 'configuration changes older than an hour',
    prune: (db, now) => pruneConfigChanges(db, new Date(now - HOUR_MS), CONFIG_CHANGES_KEPT),
  },
];

/** One pass over every rule; a rule that fails is logged and the others still run. */
export async function runRetention(
  ctx: Pick<AppContext, 'db' | 'log' | 'config'>,
  now = new Date(),
): Promise<void> {
  for (const rule of RULES) {
    try {
      const removed = await rule.prune(ctx.db, now.getTime(), ctx.config.sdk);
      if (removed > 0) ctx.log.info({ removed }, `retention: removed ${rule.what}`);
    } catch (error) {
      ctx.log.error({ err: error }, `retention: cannot remove ${rule.what}; trying again in 10 minutes`);
    }
  }
}

/**
 * Runs retention shortly after start and every 10 minutes. Every process sharing the database
 * does: whichever comes second finds little left to delete.
 */
export function startRetention(ctx: Pick<AppContext, 'db' | 'log' | 'config'>): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= runRetention(ctx).finally(() => {
      running = undefined;
    });
  };
  const first = setTimeout(run, FIRST_RUN_MS).unref();
  const every = setInterval(run, INTERVAL_MS).unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
