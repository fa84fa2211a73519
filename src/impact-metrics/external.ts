import type { AppContext } from '../app-context.js';
import { NotFoundError, ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { parseTargetUrl, TargetRefusedError } from '../outbound/targets.js';
import { findNamedSetting, saveNamedSetting } from '../settings/named.js';
import { type Aggregation, MODES_OF } from './aggregate.js';
import { askPrometheus, promqlOf } from './prometheus-client.js';
import { type MetricQuery, RANGES } from './query.js';

/**
 * An external source of impact metrics: a Prometheus (or one of its kind) that charts and
 * safeguards query instead of Flagpole's own store, for metrics SDKs do not send. Its URL may hold
 * Basic-Auth credentials: they are sealed (FLAGPOLE_SECRET_KEY) and never shown again.
 */
const SETTING = 'flagpole.impact-metrics.external-source';
const HIDDEN = '*****';

type Ctx = Pick<AppContext, 'db' | 'config' | 'secrets'>;

interface Stored {
  enabled: boolean;
  /** The URL as shown: its password hidden. */
  url: string | null;
  sealedUrl?: string;
}

const shown = (url: string | null) => {
  if (!url) return null;
  const u = new URL(url);
  if (u.password) u.password = HIDDEN;
  return u.toString();
};

export async function readExternalSource(ctx: Ctx): Promise<{ enabled: boolean; url: string | null }> {
  const stored = await findNamedSetting<Stored>(ctx.db, SETTING);
  return { enabled: stored?.enabled ?? false, url: stored?.url ?? null };
}

/** The URL to ask, when the source is on. */
async function sourceUrl(ctx: Ctx): Promise<string | undefined> {
  const stored = await findNamedSetting<Stored>(ctx.db, SETTING);
  return stored?.enabled && stored.sealedUrl ? ctx.secrets.open(stored.sealedUrl) : undefined;
}

function checkedUrl(text: string): URL {
  try {
    return parseTargetUrl(text);
  } catch (error) {
    if (!(error instanceof TargetRefusedError)) throw error;
    throw new ValidationError(error.message, [{ message: error.message, path: 'url' }]);
  }
}

/** Saves the source; a URL sent with the hidden password keeps the one saved. */
export async function saveExternalSource(
  ctx: Ctx,
  actor: Actor,
  input: { enabled: boolean; url?: string | null },
) {
  if (input.enabled && !input.url) {
    throw new ValidationError('An external source that is on needs its url.', [
      { message: 'url is required', path: 'url' },
    ]);
  }
  return ctx.db.transaction(async (tx) => {
    const before = await findNamedSetting<Stored>(tx, SETTING);
    let full: string | null = null;
    if (input.url) {
      const url = checkedUrl(input.url);
      if (url.password === HIDDEN) {
        const saved = before?.sealedUrl ? new URL(ctx.secrets.open(before.sealedUrl)) : undefined;
        if (!saved || saved.origin !== url.origin || saved.username !== url.username) {
          throw new ValidationError('The password is hidden: send it again with the URL.', [
            { message: 'url holds the hidden password of another URL', path: 'url' },
          ]);
        }
        url.password = saved.password;
      }
      full = url.toString();
    }
    const value: Stored = {
      enabled: input.enabled,
      url: shown(full),
      ...(full ? { sealedUrl: ctx.secrets.seal(full) } : {}),
    };
    await saveNamedSetting(tx, actor, SETTING, value, (v) => ({ enabled: v.enabled, url: v.url }));
    return { enabled: value.enabled, url: value.url };
  });
}

/** The metric names the URL's Prometheus has, or why it could not tell. */
export async function validateExternalSource(
  ctx: Ctx,
  text: string,
): Promise<{ metrics: string[]; error?: string }> {
  const url = checkedUrl(text);
  try {
    const names = (await askPrometheus(
      ctx.config.integrations.allowed,
      url.toString(),
      'api/v1/label/__name__/values',
    )) as string[];
    return { metrics: names.slice(0, 1000) };
  } catch (error) {
    return { metrics: [], error: error instanceof Error ? error.message : String(error) };
  }
}

async function ask(ctx: Ctx, path: string, params: Record<string, string | string[]>) {
  const url = await sourceUrl(ctx);
  if (!url) throw new NotFoundError('No external source of impact metrics is on.');
  return askPrometheus(ctx.config.integrations.allowed, url, path, params);
}

const TYPES: Record<string, 'counter' | 'gauge' | 'histogram'> = {
  counter: 'counter',
  gauge: 'gauge',
  histogram: 'histogram',
};

/** The external source's metrics with their types and help, when it is on; none when it is off or away. */
export async function externalMetadata(ctx: Ctx) {
  if (!(await sourceUrl(ctx))) return [];
  try {
    const data = (await ask(ctx, 'api/v1/metadata', { limit: '500' })) as Record<
      string,
      { type: string; help: string }[]
    >;
    return Object.entries(data).map(([name, [first]]) => ({
      name,
      type: TYPES[first?.type ?? ''] ?? 'gauge',
      help: first?.help ?? '',
    }));
  } catch {
    return [];
  }
}

const defaultMode = (mode: Aggregation | undefined) => mode ?? MODES_OF.gauge[0]!;

/** A chart's lines from the external source, in the answer's shape of the internal ones. */
export async function queryExternal(ctx: Ctx, query: MetricQuery, withLabels: boolean, now = Date.now()) {
  const range = RANGES[query.range];
  const step = range.stepMs / 1000;
  const end = Math.floor(now / 1000);
  const start = end - range.ms / 1000;
  const expr = promqlOf(query.metricName, defaultMode(query.aggregationMode), query.selectors, range.step);
  const data = (await ask(ctx, 'api/v1/query_range', {
    query: expr,
    start: String(start),
    end: String(end),
    step: String(step),
  })) as {
    result: { metric: Record<string, string>; values: [number, string][] }[];
  };
  const answer = {
    start: String(start),
    end: String(end),
    step: range.step,
    series: data.result.map((r) => ({ metric: r.metric, data: r.values })),
  };
  if (!withLabels) return answer;
  const series = (await ask(ctx, 'api/v1/series', {
    'match[]': query.metricName,
    start: String(start),
    end: String(end),
  })) as Record<string, string>[];
  const labels = new Map<string, Set<string>>();
  for (const s of series.slice(0, 2000)) {
    for (const [k, v] of Object.entries(s))
      if (k !== '__name__') labels.set(k, (labels.get(k) ?? new Set()).add(v));
  }
  return {
    ...answer,
    labels: Object.fromEntries(
      [...labels].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, [...v].sort()]),
    ),
  };
}

/** A safeguard's one number from the external source, over its range from `since`; undefined when it has none. */
export async function measureExternal(ctx: Ctx, query: MetricQuery, since: Date, now = Date.now()) {
  const seconds = Math.max(
    60,
    Math.floor((now - Math.max(now - RANGES[query.range].ms, since.getTime())) / 1000),
  );
  const expr = promqlOf(
    query.metricName,
    defaultMode(query.aggregationMode),
    query.selectors,
    `${seconds}s`,
    false,
  );
  const data = (await ask(ctx, 'api/v1/query', { query: expr, time: String(Math.floor(now / 1000)) })) as {
    result: { value: [number, string] }[];
  };
  const value = Number(data.result[0]?.value[1]);
  return Number.isFinite(value) ? value : undefined;
}
