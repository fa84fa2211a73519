import type { MetricQueryResult, MetricSeries } from './impact-api';

/** Distinct on white and to most colour-blind eyes, in the order series take them. */
export const COLORS = [
  '#0b5cad',
  '#c2410c',
  '#1a7f37',
  '#8250df',
  '#b42318',
  '#0e7490',
  '#9a6700',
  '#57606a',
];

export interface Line {
  name: string;
  color: string;
  values: (number | null)[];
  /** The newest value the line has, if any. */
  last: number | null;
  /** Its highest: a counter's latest is often a quiet minute's zero, its peak the news. */
  highest: number | null;
}

export interface ChartData {
  /** Epoch seconds, oldest first: every time any series has a value at. */
  times: number[];
  lines: Line[];
  /** The whole range asked for, so that a sparse series is drawn where it belongs in it. */
  from: number;
  to: number;
}

// Prometheus-style names (`__name__`) are the store's own, not labels an SDK sent.
const labelsOf = (series: MetricSeries) =>
  Object.entries(series.metric).filter(([name]) => !name.startsWith('__'));

/**
 * Each series named by its labels: only by those whose values tell the series apart when there
 * are several, so that a legend does not repeat what every line shares.
 */
export function seriesNames(series: MetricSeries[], fallback: string): string[] {
  const varying = new Set<string>();
  if (series.length > 1) {
    for (const [name, value] of series.flatMap(labelsOf))
      if (series.some((s) => s.metric[name] !== value)) varying.add(name);
  }
  return series.map((s) => {
    const labels = labelsOf(s).filter(([name]) => series.length === 1 || varying.has(name));
    return labels.length > 0 ? labels.map(([name, value]) => `${name}=${value}`).join(', ') : fallback;
  });
}

function numberOf(value: string): number | null {
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** The series on one time axis, as a chart draws them: a gap where a series has no value. */
export function chartData(result: MetricQueryResult, fallbackName: string): ChartData {
  const times = [...new Set(result.series.flatMap((s) => s.data.map(([t]) => Number(t))))].sort(
    (a, b) => a - b,
  );
  const names = seriesNames(result.series, fallbackName);
  const lines = result.series.map((s, i) => {
    const byTime = new Map(s.data.map(([t, v]) => [Number(t), numberOf(v)]));
    const values = times.map((t) => byTime.get(t) ?? null);
    const present = values.filter((v) => v !== null);
    const last = present.at(-1) ?? null;
    const highest = present.length > 0 ? Math.max(...present) : null;
    return { name: names[i]!, color: COLORS[i % COLORS.length]!, values, last, highest };
  });
  const from = Number(result.start);
  const to = Number(result.end);
  return {
    times,
    lines,
    from: Number.isFinite(from) ? from : (times[0] ?? 0),
    to: Number.isFinite(to) ? to : (times.at(-1) ?? 0),
  };
}

/** A value as the legend says it: small rates keep their significant digits. */
export function formatValue(value: number | null): string {
  if (value === null) return '—';
  if (value !== 0 && Math.abs(value) < 1) return value.toLocaleString('en', { maximumSignificantDigits: 3 });
  return value.toLocaleString('en', { maximumFractionDigits: 2 });
}
