import type { Choice } from '../../components/fields';

// The shapes of the impact-metrics API: custom metrics the SDKs send with their usage, kept per minute.

export type MetricType = 'counter' | 'gauge' | 'histogram';
export type TimeRange = 'hour' | 'day' | 'week' | 'month';
export type AggregationMode = 'rps' | 'count' | 'avg' | 'sum' | 'p50' | 'p95' | 'p99';
export type YAxisMin = 'auto' | 'zero';
/**
 * Values by label name: a series matches when its value of each named label is one of them (`*`:
 * any). A label with several values, or `*`, draws one line per value; the others are summed up.
 */
export type LabelSelectors = Record<string, string[]>;

export interface MetricInfo {
  name: string;
  help: string;
  displayName: string;
  type: MetricType;
  source: string;
}

export interface MetricSeries {
  metric: Record<string, string>;
  /** [epoch seconds, value]: the value is a string, as Prometheus writes it. */
  data: [number, string][];
}

export interface MetricQueryResult {
  start: string;
  end: string;
  step: string;
  series: MetricSeries[];
  /** The labels the metric's series carry, with their values: in edit mode only. */
  labels?: Record<string, string[]>;
}

/** What a chart shows: the body of a save, without its id. */
export interface ChartDraft {
  metricName: string;
  timeRange: TimeRange;
  aggregationMode: AggregationMode;
  labelSelectors: LabelSelectors;
  yAxisMin: YAxisMin;
  title?: string;
}

export interface ChartConfig extends ChartDraft {
  id: string;
  displayName: string;
  /** 'read': a safeguard watches this chart, so it can be neither changed nor deleted. */
  mode: 'read' | 'write';
  step?: string;
}

export const METADATA_PATH = '/api/admin/impact-metrics/metadata';
export const GLOBAL_CONFIG_PATH = '/api/admin/impact-metrics/config';

export const TIME_RANGES: { value: TimeRange; label: string }[] = [
  { value: 'hour', label: 'Last hour' },
  { value: 'day', label: 'Last day' },
  { value: 'week', label: 'Last week' },
  { value: 'month', label: 'Last month' },
];

const MODES: Record<MetricType, { value: AggregationMode; label: string }[]> = {
  counter: [
    { value: 'count', label: 'Count per interval' },
    { value: 'rps', label: 'Rate per second' },
  ],
  gauge: [
    { value: 'avg', label: 'Average' },
    { value: 'sum', label: 'Sum' },
  ],
  histogram: [
    { value: 'p95', label: '95th percentile' },
    { value: 'p50', label: 'Median (p50)' },
    { value: 'p99', label: '99th percentile' },
  ],
};

/** The aggregations that mean something for a type of metric; the first is the one a new chart takes. */
export function modesOf(type: MetricType | undefined): Choice[] {
  return MODES[type ?? 'counter'] ?? MODES.counter;
}

export const modeLabel = (mode: AggregationMode) =>
  Object.values(MODES)
    .flat()
    .find((m) => m.value === mode)?.label ?? mode;

export const rangeLabel = (range: TimeRange) => TIME_RANGES.find((r) => r.value === range)?.label ?? range;

/** `/api/admin/projects/<p>/features/<f>/impact-metrics/config`: a flag's own charts. */
export function flagConfigPath(project: string, feature: string): string {
  return `/api/admin/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(feature)}/impact-metrics/config`;
}

/**
 * The query of a chart's data. Edit mode also answers the labels to filter by, which a saved
 * chart does not need.
 */
export function queryPath(draft: ChartDraft, mode: 'edit' | 'display'): string {
  const query = new URLSearchParams({
    metricName: draft.metricName,
    range: draft.timeRange,
    aggregationMode: draft.aggregationMode,
    mode,
  });
  const selected = Object.entries(draft.labelSelectors).filter(([, values]) => values.length > 0);
  if (selected.length > 0) query.set('labels', JSON.stringify(Object.fromEntries(selected)));
  return `/api/admin/impact-metrics/?${query}`;
}
