import type { Queryable } from '../db/database.js';
import { NotFoundError, ValidationError } from '../http/errors.js';
import { type Aggregation, linesOf, MODES_OF, type Selectors, selected } from './aggregate.js';
import { findMetric, pointsOf, type Resolution, type StoredMetric, seriesOf } from './store.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type Range = 'hour' | 'day' | 'week' | 'month' | 'threeMonths' | 'sixMonths';

/** Each range's length, the step of its points, and the table that has them. */
export const RANGES: Record<Range, { ms: number; stepMs: number; step: string; resolution: Resolution }> = {
  hour: { ms: HOUR, stepMs: MINUTE, step: '1m', resolution: 'minutes' },
  day: { ms: DAY, stepMs: 15 * MINUTE, step: '15m', resolution: 'minutes' },
  week: { ms: 7 * DAY, stepMs: 3 * HOUR, step: '3h', resolution: 'hours' },
  month: { ms: 30 * DAY, stepMs: DAY, step: '1d', resolution: 'hours' },
  threeMonths: { ms: 90 * DAY, stepMs: DAY, step: '1d', resolution: 'hours' },
  sixMonths: { ms: 180 * DAY, stepMs: DAY, step: '1d', resolution: 'hours' },
};

export interface MetricQuery {
  metricName: string;
  range: Range;
  aggregationMode?: Aggregation;
  selectors: Selectors;
}

/** The metric, and the aggregation the query asks for or the default of its type. */
export async function metricAndMode(
  db: Queryable,
  metricName: string,
  mode: Aggregation | undefined,
): Promise<{ metric: StoredMetric; mode: Aggregation }> {
  const metric = await findMetric(db, metricName);
  if (!metric) throw new NotFoundError(`No impact metric is named "${metricName}".`);
  const modes = MODES_OF[metric.type];
  if (mode && !modes.includes(mode)) {
    throw new ValidationError(
      `"${metricName}" is a ${metric.type}: it is aggregated by ${modes.join(', ')}, not by ${mode}.`,
      [
        {
          message: `aggregationMode must be one of ${modes.join(', ')} for a ${metric.type}`,
          path: 'aggregationMode',
        },
      ],
    );
  }
  return { metric, mode: mode ?? modes[0]! };
}

/** A chart's lines: the metric over the range, one line per value of the labels selected by several. */
export async function querySeries(db: Queryable, query: MetricQuery, withLabels: boolean, now = Date.now()) {
  const { metric, mode } = await metricAndMode(db, query.metricName, query.aggregationMode);
  const range = RANGES[query.range];
  const series = await seriesOf(db, metric.name);
  const window = { startMs: now - range.ms, endMs: now + 1, stepMs: range.stepMs };
  const first = Math.floor(window.startMs / range.stepMs) * range.stepMs;
  const ids = series.filter((s) => selected(s.labels, query.selectors)).map((s) => s.id);
  const points = await pointsOf(db, range.resolution, metric.type, ids, new Date(first), range.stepMs / 1000);
  const answer = {
    start: String(Math.floor(window.startMs / 1000)),
    end: String(Math.floor(now / 1000)),
    step: range.step,
    series: linesOf(metric.type, mode, series, points, query.selectors, window),
  };
  return withLabels ? { ...answer, labels: labelValues(series) } : answer;
}

/** Every label of the metric's series with the values it takes, sorted. */
function labelValues(series: { labels: Record<string, string> }[]): Record<string, string[]> {
  const values = new Map<string, Set<string>>();
  for (const s of series) {
    for (const [k, v] of Object.entries(s.labels)) values.set(k, (values.get(k) ?? new Set()).add(v));
  }
  return Object.fromEntries(
    [...values].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, [...v].sort()]),
  );
}

/**
 * One number for the query over its range (from `since` when later): what a safeguard compares
 * with its threshold. Undefined when nothing was reported then (a safeguard does not act on silence).
 */
export async function measure(db: Queryable, query: MetricQuery, since: Date, now = Date.now()) {
  const metric = await findMetric(db, query.metricName);
  if (!metric) return undefined;
  const mode =
    query.aggregationMode && MODES_OF[metric.type].includes(query.aggregationMode)
      ? query.aggregationMode
      : MODES_OF[metric.type][0]!;
  const range = RANGES[query.range];
  const startMs = Math.max(now - range.ms, since.getTime());
  // Minutes cover two days; anything longer is read by the hour.
  const resolution: Resolution = now - startMs <= 2 * DAY ? 'minutes' : 'hours';
  const unit = resolution === 'minutes' ? MINUTE : HOUR;
  const from = Math.floor(startMs / unit) * unit;
  const series = await seriesOf(db, metric.name);
  const ids = series.filter((s) => selected(s.labels, query.selectors)).map((s) => s.id);
  const points = await pointsOf(db, resolution, metric.type, ids, new Date(from));
  const stepMs = now + 1 - from;
  const [line] = linesOf(
    metric.type,
    mode,
    series,
    points,
    query.selectors,
    { startMs: from, endMs: now + 1, stepMs },
    false,
  );
  const value = line?.data[0]?.[1];
  if (value === undefined || points.length === 0) return undefined;
  return Number(value);
}

/** The `labels` parameter: JSON of label names to lists of values. */
export function parseSelectors(labels: string | undefined): Selectors {
  if (labels === undefined || labels === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(labels);
  } catch {
    throw new ValidationError('labels is not JSON.', [
      { message: 'labels must be JSON: {"label": ["value"]}', path: 'labels' },
    ]);
  }
  const ok =
    parsed !== null &&
    typeof parsed === 'object' &&
    !Array.isArray(parsed) &&
    Object.keys(parsed).length <= 16 &&
    Object.values(parsed).every(
      (v) => Array.isArray(v) && v.length <= 50 && v.every((x) => typeof x === 'string'),
    );
  if (!ok) {
    throw new ValidationError('labels must map label names to lists of values.', [
      { message: 'labels must be {"label": ["value", …]}', path: 'labels' },
    ]);
  }
  return parsed as Selectors;
}
