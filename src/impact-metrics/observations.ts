import { createHash } from 'node:crypto';
import type { ImpactMetricReport } from './schemas.js';

export type MetricType = 'counter' | 'gauge' | 'histogram';

/** One sample of a report, named and labelled as it is stored. */
export interface Observation {
  metric: string;
  type: MetricType;
  help: string;
  labels: Record<string, string>;
  /** A hash of the labels (keys sorted): what tells the metric's series apart. */
  labelsKey: string;
  /** A counter's increase, a gauge's value, a histogram's count. */
  value: number;
  /** Histograms: the sum of what was observed, the finite bucket bounds ascending, and per bound how many were at most it. */
  sum?: number;
  bounds?: number[];
  buckets?: number[];
}

/** Whose series budget a token's reports take (see IMPACT_LIMITS). */
export const tokenKeyOf = (token: { tokenId: number }) => `token:${token.tokenId}`;

/** Where the report came from: an SDK directly, or an Edge that relays its SDKs' reports. */
export type Origin = 'sdk' | 'Edge';

// Prometheus's rules for names, as Unleash applies them: other characters become `_`, and a name
// that then does not start with a letter or `_` is dropped.
const sanitize = (name: string) => name.replace(/[^a-zA-Z0-9_]/g, '_');
const usable = (name: string) => /^[a-zA-Z_]/.test(name);

/** The labels as one short text: a hash of their canonical form (keys sorted). */
export function labelsKeyOf(labels: Record<string, string>): string {
  const canonical = JSON.stringify(
    Object.keys(labels)
      .sort()
      .map((k) => [k, labels[k]]),
  );
  return createHash('sha256').update(canonical).digest('base64url');
}

function labelsOf(raw: Record<string, string | number> | undefined, origin: Origin): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw ?? {})) {
    const name = sanitize(key);
    if (usable(name)) labels[name] = String(value);
  }
  labels.origin ??= origin;
  return labels;
}

/** A report's metrics as observations to store; metrics with names that cannot be stored are left out. */
export function observationsOf(metrics: readonly ImpactMetricReport[], origin: Origin): Observation[] {
  const out: Observation[] = [];
  for (const metric of metrics) {
    const name = sanitize(metric.name);
    if (!usable(name)) continue;
    for (const sample of metric.samples) {
      const labels = labelsOf(sample.labels, origin);
      const base = {
        metric: name,
        type: metric.type,
        help: metric.help,
        labels,
        labelsKey: labelsKeyOf(labels),
      };
      if ('buckets' in sample) {
        const finite = sample.buckets
          .filter((b): b is { le: number; count: number } => b.le !== '+Inf')
          .sort((a, b) => a.le - b.le);
        out.push({
          ...base,
          value: sample.count,
          sum: sample.sum,
          bounds: finite.map((b) => b.le),
          buckets: finite.map((b) => b.count),
        });
      } else {
        out.push({ ...base, value: sample.value });
      }
    }
  }
  return out;
}
