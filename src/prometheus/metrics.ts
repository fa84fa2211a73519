import type { onRouteHookHandler } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../app-context.js';

/** Milliseconds, as Unleash's request histograms. */
const BUCKETS = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000];

/** Process metrics (CPU, memory, event loop, GC) are the process's: collected once, whatever the apps. */
let processRegistry: Registry | undefined;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

type Child = { observe(value: number): void };

/** The `project` label of the private projects' flags, together (ids cannot hold parentheses). */
const PRIVATE_PROJECTS = '(private)';

export interface PrometheusMetrics {
  /** An `onRoute` hook: the route it is given gets its requests timed. */
  timeRoute: onRouteHookHandler;
  scrape: () => Promise<{ contentType: string; text: string }>;
}

/**
 * The metrics of GET /internal-backstage/prometheus. Requests are timed by a hook on each route
 * that knows its route pattern and keeps its label sets, so a request costs one histogram
 * observation; SDK requests go to a histogram of their own (Unleash's names). Everything else is
 * read when scraped: flag counts from the model in memory, the revision, the pool.
 */
export function createPrometheusMetrics(ctx: AppContext): PrometheusMetrics {
  const registry = new Registry();
  const labelNames = ['path', 'method', 'status'] as const;
  const requests = new Histogram({
    name: 'http_request_duration_milliseconds',
    help: 'Time to answer a request to the admin API and other routes, by route pattern, method and status',
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });
  const sdkRequests = new Histogram({
    name: 'http_sdk_request_duration_milliseconds',
    help: 'Time to answer a request of an SDK (client and frontend API), by route pattern, method and status',
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });

  const timeRoute: onRouteHookHandler = (route) => {
    const audience = route.config?.audience;
    const histogram = audience === 'client' || audience === 'frontend' ? sdkRequests : requests;
    const path = route.url;
    const children = new Map<string, Child>();
    const timed = (
      request: { method: string },
      reply: { statusCode: number; elapsedTime: number },
      done: () => void,
    ) => {
      const key = request.method + reply.statusCode;
      let child = children.get(key);
      if (!child) {
        child = histogram.labels({ path, method: request.method, status: String(reply.statusCode) });
        children.set(key, child);
      }
      child.observe(reply.elapsedTime);
      done();
    };
    const own = route.onResponse
      ? Array.isArray(route.onResponse)
        ? route.onResponse
        : [route.onResponse]
      : [];
    route.onResponse = [...own, timed];
  };

  const gauge = (name: string, help: string, collect: (g: Gauge) => void, labels: string[] = []) =>
    new Gauge({
      name,
      help,
      labelNames: labels,
      registers: [registry],
      collect() {
        this.reset();
        collect(this);
      },
    });

  gauge(
    'flagpole_config_revision',
    'The configuration revision this process serves (-1 before the first load)',
    (g) => g.set(ctx.sync.revision),
  );
  gauge(
    'flagpole_snapshot_age_seconds',
    'Time since the configuration served was last confirmed to be the newest (-1 before)',
    (g) => g.set(ctx.sync.lastConfirmedAt ? (Date.now() - ctx.sync.lastConfirmedAt) / 1000 : -1),
  );
  gauge('flagpole_maintenance_mode', '1 while maintenance mode is on', (g) =>
    g.set(ctx.maintenance.enabled ? 1 : 0),
  );
  // The scrape needs no credentials: the private projects' flags are counted together, under a
  // label no project id can have, so their names stay out of it.
  const counts = () => {
    const byProject = new Map<string, { active: number; stale: number; archived: number }>();
    const hidden = ctx.model.privateProjects();
    for (const f of ctx.model.allFeatures()) {
      const label = hidden.has(f.project) ? PRIVATE_PROJECTS : f.project;
      const c = byProject.get(label) ?? { active: 0, stale: 0, archived: 0 };
      if (f.archivedAt) c.archived++;
      else if (f.stale) c.stale++;
      else c.active++;
      byProject.set(label, c);
    }
    return byProject;
  };
  gauge('feature_toggles_total', 'Feature flags, not archived', (g) => {
    let n = 0;
    for (const c of counts().values()) n += c.active + c.stale;
    g.set(n);
  });
  gauge(
    'flagpole_features',
    'Feature flags by project and state (active, stale, archived); private projects together as "(private)"',
    (g) => {
      for (const [project, c] of counts()) {
        for (const state of ['active', 'stale', 'archived'] as const) g.set({ project, state }, c[state]);
      }
    },
    ['project', 'state'],
  );
  const pool = ctx.db.poolStats?.bind(ctx.db);
  if (pool) {
    gauge('db_pool_max', 'Connections the PostgreSQL pool may open', (g) => g.set(pool().max));
    gauge('db_pool_used', 'PostgreSQL connections in use', (g) => {
      const s = pool();
      g.set(s.total - s.idle);
    });
    gauge('db_pool_free', 'PostgreSQL connections open and idle', (g) => g.set(pool().idle));
    gauge('db_pool_pending_acquires', 'Queries waiting for a free PostgreSQL connection', (g) =>
      g.set(pool().waiting),
    );
  }

  const process = processMetrics();
  return {
    timeRoute,
    scrape: async () => ({
      contentType: registry.contentType,
      text: `${await process.metrics()}\n${await registry.metrics()}`,
    }),
  };
}
