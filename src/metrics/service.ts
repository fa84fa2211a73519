import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { noteInstancesSeen } from '../applications/service.js';
import type { Queryable } from '../db/database.js';
import { markFeaturesSeen } from '../features/environments/last-seen.js';
import { NotFoundError } from '../http/errors.js';
import { SYSTEM_ACTOR } from '../http/identity.js';
import { markMetricsWritten } from '../sync/changes.js';
import { MetricsBuffer } from './buffer.js';
import { RawMetricsCache } from './cache.js';
import type { RawMetrics } from './schemas.js';
import { addHourlyCounts, hourlyRowsOf } from './store.js';
import { recordUnknownFlags } from './usage-store.js';

const HOUR_MS = 60 * 60 * 1000;
const DEFAULT_HOURS = 48;

/** The buffer SDK metrics go through on their way to the hourly tables. */
export function createMetricsBuffer(ctx: AppContext): MetricsBuffer {
  return new MetricsBuffer(
    (batch) =>
      ctx.db.transaction(async (tx) => {
        await noteInstancesSeen(tx, { ...SYSTEM_ACTOR, name: 'sdk' }, batch.instances);
        await recordUnknownFlags(tx, batch.counts);
        if (!(await addHourlyCounts(tx, batch.counts))) return;
        await markFeaturesSeen(tx, batch.counts);
        markMetricsWritten(tx);
      }),
    { log: ctx.log, isFeature: (name) => ctx.model.feature(name) !== undefined },
  );
}

export type RawMetricsAnswer = Static<typeof RawMetrics>;

/** The E20 cache, emptied whenever usage counts are written by any process. */
export function createRawMetricsCache(ctx: AppContext): RawMetricsCache<RawMetricsAnswer> {
  const cache = new RawMetricsCache<RawMetricsAnswer>();
  ctx.sync.onMetricsChange(() => cache.clear());
  return cache;
}

/** `hoursBack` 1..48 narrows the window; anything else leaves the default of 48 hours. */
function windowHours(hoursBack: string | undefined): number {
  if (hoursBack === undefined || !/^\d+$/.test(hoursBack)) return DEFAULT_HOURS;
  const n = Number(hoursBack);
  return n >= 1 && n <= DEFAULT_HOURS ? n : DEFAULT_HOURS;
}

/** E20, for any feature archived or not, from the cache while no counts were written. */
export async function readRawMetrics(
  ctx: AppContext,
  cache: RawMetricsCache<RawMetricsAnswer>,
  featureName: string,
  hoursBack?: string,
): Promise<RawMetricsAnswer> {
  const feature = ctx.model.feature(featureName);
  if (!feature) throw new NotFoundError(`There is no feature named "${featureName}", archived or not.`);
  const hours = windowHours(hoursBack);
  const currentHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  return cache.get(feature, hours, currentHour, () => rawMetrics(ctx.db, featureName, hours, currentHour));
}

/**
 * For every (application, environment) with a count in the window, one entry per hour of the
 * window, oldest first, hours without counts filled with zeros.
 */
async function rawMetrics(
  db: Queryable,
  featureName: string,
  hours: number,
  currentHour: number,
): Promise<RawMetricsAnswer> {
  const firstHour = currentHour - (hours - 1) * HOUR_MS;
  const rows = await hourlyRowsOf(db, featureName, new Date(firstHour));

  const series = new Map<string, Map<number, (typeof rows)[number]>>();
  for (const row of rows) {
    const key = `${row.environment}\u0000${row.appName}`;
    const byHour = series.get(key) ?? new Map();
    byHour.set(row.hour.getTime(), row);
    series.set(key, byHour);
  }
  const data = [];
  for (const [key, byHour] of series) {
    const [environment, appName] = key.split('\u0000') as [string, string];
    for (let hour = firstHour; hour <= currentHour; hour += HOUR_MS) {
      const row = byHour.get(hour);
      const timestamp = new Date(hour).toISOString();
      data.push(
        row
          ? { featureName, appName, environment, timestamp, yes: row.yes, no: row.no, variants: row.variants }
          : { featureName, appName, environment, timestamp, yes: 0, no: 0 },
      );
    }
  }
  return { version: 1 as const, maturity: 'stable' as const, data };
}
