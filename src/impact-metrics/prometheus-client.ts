import { outboundFetch } from '../outbound/fetch.js';
import type { OutboundRules } from '../outbound/targets.js';
import type { Aggregation, Selectors } from './aggregate.js';

/** How long one question to the external Prometheus may take. */
const TIMEOUT_MS = 10_000;

/**
 * Asks a Prometheus (or anything speaking its HTTP API: Mimir, Thanos, VictoriaMetrics) at `base`
 * — Basic-Auth credentials may be in the URL — under the rule for Flagpole's own requests
 * (INTEGRATION_ALLOWED_HOSTS), as OpenID discovery is. The `data` of a successful answer.
 */
export async function askPrometheus(
  rules: OutboundRules,
  base: string,
  path: string,
  params: Record<string, string | string[]> = {},
): Promise<unknown> {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  for (const [k, v] of Object.entries(params)) {
    for (const value of Array.isArray(v) ? v : [v]) url.searchParams.append(k, value);
  }
  const answer = await outboundFetch(rules)(url.toString(), {
    method: 'GET',
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  let body: { status?: string; data?: unknown; error?: string };
  try {
    body = (await answer.json()) as typeof body;
  } catch {
    throw new Error(`${url.origin} answered ${answer.status} without JSON: not a Prometheus HTTP API.`);
  }
  if (!answer.ok || body.status !== 'success') {
    throw new Error(`${url.origin} answered ${answer.status}: ${body.error ?? 'not a Prometheus answer'}`);
  }
  return body.data;
}

const quote = (v: string) => JSON.stringify(v);
const escapeRegex = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The selector's matchers as PromQL (`*`: any value, so no matcher), and the labels lines are drawn by. */
function matchersOf(selectors: Selectors): { matchers: string; by: string[] } {
  const parts: string[] = [];
  const by: string[] = [];
  for (const [label, values] of Object.entries(selectors)) {
    if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(label)) continue;
    if (values.includes('*') || values.length > 1) by.push(label);
    if (values.includes('*')) continue;
    parts.push(
      values.length === 1
        ? `${label}=${quote(values[0]!)}`
        : `${label}=~${quote(values.map(escapeRegex).join('|'))}`,
    );
  }
  return { matchers: parts.join(','), by };
}

/**
 * The PromQL of a chart or a safeguard: counters by their increase (count) or rate (rps) over
 * `window`, gauges averaged or summed, histograms by their quantile over `window`.
 */
export function promqlOf(
  metric: string,
  mode: Aggregation,
  selectors: Selectors,
  window: string,
  grouped = true,
): string {
  const { matchers, by } = matchersOf(selectors);
  const groups = grouped ? by : [];
  const byClause = groups.length > 0 ? ` by (${groups.join(',')})` : '';
  switch (mode) {
    case 'count':
      return `sum${byClause} (increase(${metric}{${matchers}}[${window}]))`;
    case 'rps':
      return `sum${byClause} (rate(${metric}{${matchers}}[${window}]))`;
    case 'avg':
    case 'sum':
      return `${mode}${byClause} (${metric}{${matchers}})`;
    default: {
      const q = Number(mode.slice(1)) / 100;
      const le = ['le', ...groups].join(',');
      return `histogram_quantile(${q}, sum by (${le}) (rate(${metric}_bucket{${matchers}}[${window}])))`;
    }
  }
}
