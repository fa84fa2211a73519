import type { MetricType } from './observations.js';
import type { PointRow, StoredSeries } from './store.js';

export type Aggregation = 'rps' | 'count' | 'avg' | 'sum' | 'p50' | 'p95' | 'p99';

/** What each type of metric can be aggregated by, the first its default. */
export const MODES_OF: Record<MetricType, Aggregation[]> = {
  counter: ['count', 'rps'],
  gauge: ['avg', 'sum'],
  histogram: ['p95', 'p50', 'p99'],
};

export type Selectors = Record<string, string[]>;

/** Whether the series' labels pass the selectors: each label named has one of its values ("*": any). */
export function selected(labels: Record<string, string>, selectors: Selectors): boolean {
  return Object.entries(selectors).every(([label, values]) => {
    const value = labels[label];
    if (value === undefined) return false;
    return values.includes('*') || values.includes(value);
  });
}

/**
 * The labels a chart draws one line per value of: those selected by "*" or by several values.
 * The others narrow the query and name every line.
 */
function groupLabels(selectors: Selectors): string[] {
  return Object.keys(selectors)
    .filter((k) => selectors[k]!.includes('*') || selectors[k]!.length > 1)
    .sort();
}

export interface Window {
  startMs: number;
  endMs: number;
  stepMs: number;
}

export interface Line {
  metric: Record<string, string>;
  data: [number, string][];
}

/** Values as Prometheus writes them: text, without float noise. */
const text = (v: number) => String(Number(v.toPrecision(12)));

/**
 * The series' points as lines over the window, one point per step (a step is named by its start,
 * in epoch seconds). Counters: the increase in the step (`count`) or per second (`rps`), zero where
 * nothing was reported. Gauges: per series its last value in the step, summed or averaged across
 * series. Histograms: the quantile of everything observed in the step, across series.
 */
export function linesOf(
  type: MetricType,
  mode: Aggregation,
  series: StoredSeries[],
  points: PointRow[],
  selectors: Selectors,
  window: Window,
  grouped = true,
): Line[] {
  const by = grouped ? groupLabels(selectors) : [];
  const fixed = Object.fromEntries(
    Object.entries(selectors)
      .filter(([k, v]) => !by.includes(k) && v.length === 1 && v[0] !== '*')
      .map(([k, v]) => [k, v[0]!]),
  );
  const groupOf = new Map<number, string>();
  const groups = new Map<string, Record<string, string>>();
  for (const s of series) {
    if (!selected(s.labels, selectors)) continue;
    const metric = { ...fixed, ...Object.fromEntries(by.map((k) => [k, s.labels[k]!])) };
    const key = JSON.stringify(by.map((k) => s.labels[k]));
    groupOf.set(s.id, key);
    groups.set(key, metric);
  }
  const first = Math.floor(window.startMs / window.stepMs) * window.stepMs;
  const steps = Math.max(1, Math.ceil((window.endMs - first) / window.stepMs));
  const byGroup = new Map<string, PointRow[][]>();
  for (const p of points) {
    const key = groupOf.get(p.seriesId);
    const at = p.at.getTime();
    if (key === undefined || at < first || at >= window.endMs) continue;
    const cells = byGroup.get(key) ?? Array.from({ length: steps }, () => []);
    cells[Math.floor((at - first) / window.stepMs)]!.push(p);
    byGroup.set(key, cells);
  }
  const bounds = new Map(series.map((s) => [s.id, s.bounds ?? []]));
  // A counter's rate is over whole steps: the current one, still filling, reads low rather than jumpy.
  const stepSeconds = window.stepMs / 1000;
  const lines: Line[] = [];
  for (const [key, metric] of groups) {
    const cells = byGroup.get(key) ?? Array.from({ length: steps }, () => []);
    const data: [number, string][] = [];
    cells.forEach((cell, i) => {
      const value = stepValue(type, mode, cell, bounds, stepSeconds);
      if (value !== undefined) data.push([(first + i * window.stepMs) / 1000, text(value)]);
    });
    lines.push({ metric, data });
  }
  return lines.sort((a, b) => JSON.stringify(a.metric).localeCompare(JSON.stringify(b.metric)));
}

function stepValue(
  type: MetricType,
  mode: Aggregation,
  cell: PointRow[],
  bounds: Map<number, number[]>,
  seconds: number,
): number | undefined {
  if (type === 'counter') {
    const total = cell.reduce((n, p) => n + p.value, 0);
    return mode === 'rps' ? total / Math.max(seconds, 1) : total;
  }
  if (cell.length === 0) return undefined;
  if (type === 'gauge') {
    const last = new Map<number, number>();
    for (const p of cell) last.set(p.seriesId, p.value); // points come oldest first
    const values = [...last.values()];
    const sum = values.reduce((n, v) => n + v, 0);
    return mode === 'sum' ? sum : sum / values.length;
  }
  return quantileOf(Number(mode.slice(1)) / 100, cell, bounds);
}

/**
 * The q-quantile of a histogram's observations, as Prometheus's `histogram_quantile` estimates it:
 * found in the first bucket whose count reaches the rank, interpolated linearly inside it; in the
 * +Inf bucket, the highest finite bound.
 */
export function quantileOf(q: number, cell: PointRow[], bounds: Map<number, number[]>): number | undefined {
  const seriesBounds = bounds.get(cell[0]!.seriesId) ?? [];
  let count = 0;
  const buckets = seriesBounds.map(() => 0);
  for (const p of cell) {
    const own = bounds.get(p.seriesId) ?? [];
    if (own.length !== seriesBounds.length || own.some((b, i) => b !== seriesBounds[i])) continue;
    count += p.value;
    p.buckets?.forEach((n, i) => {
      buckets[i]! += n;
    });
  }
  if (count <= 0) return undefined;
  const rank = q * count;
  let below = 0;
  for (let i = 0; i < seriesBounds.length; i++) {
    const upTo = buckets[i]!;
    if (upTo >= rank) {
      const lower = i === 0 ? Math.min(0, seriesBounds[0]!) : seriesBounds[i - 1]!;
      const inBucket = upTo - below;
      return inBucket <= 0
        ? seriesBounds[i]!
        : lower + ((seriesBounds[i]! - lower) * (rank - below)) / inBucket;
    }
    below = upTo;
  }
  return seriesBounds.at(-1) ?? 0;
}
