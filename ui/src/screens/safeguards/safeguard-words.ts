import type { AggregationMode, Safeguard, SafeguardInput, TimeRange } from '../../api/releases';

export const TIME_RANGES: { value: TimeRange; label: string }[] = [
  { value: 'hour', label: 'the last hour' },
  { value: 'day', label: 'the last day' },
  { value: 'week', label: 'the last week' },
  { value: 'month', label: 'the last month' },
];

const MODE_LABELS: Record<AggregationMode, string> = {
  rps: 'rps (per second)',
  count: 'count',
  avg: 'average',
  sum: 'sum',
  p50: 'p50 (median)',
  p95: 'p95',
  p99: 'p99',
};

/** What a metric of each type can be reduced to: a counter's rate or total, a gauge's mean or sum… */
const MODES_BY_TYPE: Record<string, AggregationMode[]> = {
  counter: ['rps', 'count'],
  gauge: ['avg', 'sum'],
  histogram: ['p50', 'p95', 'p99'],
};

/** The modes a metric of this type offers; all of them when its type is not known. */
export function modesFor(type: string | undefined): { value: AggregationMode; label: string }[] {
  const modes = (type && MODES_BY_TYPE[type]) || (Object.keys(MODE_LABELS) as AggregationMode[]);
  return modes.map((m) => ({ value: m, label: MODE_LABELS[m] }));
}

function labelWords(selectors: Record<string, string[]>): string {
  const parts = Object.entries(selectors)
    .filter(([, values]) => values.length > 0)
    .map(([label, values]) => `${label}: ${values.join(' or ')}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** "request_errors rps over the last hour > 5": the condition a safeguard watches for. */
export function conditionWords({ impactMetric: m, triggerCondition: t }: SafeguardInput): string {
  const range = TIME_RANGES.find((r) => r.value === m.timeRange)?.label ?? m.timeRange;
  return `${m.metricName}${labelWords(m.labelSelectors)} ${m.aggregationMode} over ${range} ${t.operator} ${t.threshold}`;
}

/** The whole safeguard in a sentence: what it does, and when. */
export function safeguardWords(safeguard: Safeguard): string {
  const action =
    safeguard.action.type === 'pauseReleasePlanProgressions'
      ? 'Pause progressions'
      : `Turn the flag off in ${safeguard.action.environment}`;
  return `${action} when ${conditionWords(safeguard)}`;
}

/** "appName=shop, region=eu" as label selectors: each label with the values given it. */
export function parseLabels(text: string): Record<string, string[]> {
  const selectors: Record<string, string[]> = {};
  for (const pair of text.split(',')) {
    const [label, ...rest] = pair.split('=');
    const name = label?.trim();
    const value = rest.join('=').trim();
    if (name && value) selectors[name] = [...(selectors[name] ?? []), value];
  }
  return selectors;
}

export function formatLabels(selectors: Record<string, string[]>): string {
  return Object.entries(selectors)
    .flatMap(([label, values]) => values.map((v) => `${label}=${v}`))
    .join(', ');
}
