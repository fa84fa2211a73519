import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyRequest, LogController } from 'fastify';
import type { AppContext } from './app-context.js';
import { AREAS, type Area, type SharedParts } from './areas.js';
import { credentialsOf, resolveIdentity } from './auth/resolve-identity.js';
import { runScheduledRequests } from './change-requests/schedule.js';
import { requireDeclaredChanges } from './changes/route-config.js';
import { DeltaLog } from './client/delta.js';
import { FlagSnapshot } from './client/snapshot.js';
import { StreamHub } from './client/streaming.js';
import { answerUnroutable, registerAuthentication, registerNotFound } from './http/auth.js';
import { BODY_LIMIT, registerBodyParsers } from './http/body/parsers.js';
import { answerClientError, requireHostHeader } from './http/client-errors.js';
import { registerCompression } from './http/compression.js';
import { registerCors } from './http/cors.js';
import { drainOnClose } from './http/drain.js';
import { registerErrorHandler } from './http/errors.js';
import { registerOpenApi } from './http/openapi.js';
import { fastifyTrustProxy } from './http/proxy.js';
import { limitSdkEvaluations } from './http/rate-limit.js';
import { type App, isReadOnly, isSdkRoute } from './http/route.js';
import { lazySerializers, registerValidation } from './http/validation.js';
import { createImpactMetricsBuffer } from './impact-metrics/write.js';
import { registerMaintenanceGate } from './maintenance/gate.js';
import { createMetricsBuffer } from './metrics/service.js';
import { createPrometheusMetrics } from './prometheus/metrics.js';
import { runProgressions } from './release-plans/progression.js';
import { checkSafeguards } from './release-plans/safeguards/check.js';
import { startRetention } from './retention.js';
import { webRoutes } from './web/routes.js';

/** The HTTP application, not yet listening: plugins and hooks first, then every area's routes. */
export async function buildApp(ctx: AppContext): Promise<App> {
  const identify = (request: FastifyRequest) =>
    resolveIdentity(ctx.db, ctx.identityCache, credentialsOf(request));
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    // Per-request log lines would cost more than most requests; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // Nor a child logger per request: the few lines a request logs carry their own ids.
    childLoggerFactory: (logger) => logger,
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    schemaController: lazySerializers(),
    frameworkErrors: answerUnroutable(identify),
    // What Node's HTTP parser refuses, answered with the error body of the contract; a missing
    // Host header too, which Node would answer itself with no body.
    clientErrorHandler: answerClientError,
    http: { requireHostHeader: false },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Before any route is declared. Answered with 503 rather than left waiting (REQUEST_TIMEOUT_MS);
  // not the SDK reads: they answer from the snapshot without waiting on anything, and a timer and
  // an AbortController per request were a tenth of their cost.
  app.addHook('onRoute', (route) => {
    if (!(isSdkRoute(route) && isReadOnly(route))) route.handlerTimeout ??= ctx.config.requestTimeoutMs;
  });
  requireHostHeader(app);
  registerValidation(app);
  registerBodyParsers(app);
  registerErrorHandler(app);
  app.decorate('signInDetails', () => ctx.signIn.describe());
  drainOnClose(app);
  await registerOpenApi(app);
  // Before credentials are looked at: a preflight carries none, and an SDK's 401 must reach it.
  registerCors(app, () => ctx.frontendOrigins.current);
  registerAuthentication(app, identify, new URL(ctx.config.unleashUrl).origin, () =>
    ctx.model.privateProjects(),
  );
  registerMaintenanceGate(app, ctx.maintenance);
  requireDeclaredChanges(app);
  registerNotFound(app, identify, await webRoutes(app, ctx));
  // A change made here is in this process's caches before its answer leaves, so the caller's next
  // request (a deleted token, an SDK poll) already sees it. Only routes that can change something
  // wait; SDK traffic changes no configuration.
  app.addHook('onRoute', (route) => {
    if (isReadOnly(route) || isSdkRoute(route)) return;
    const settled = async (_request: unknown, reply: { statusCode: number }, payload: unknown) => {
      if (reply.statusCode < 400) await ctx.sync.settled();
      return payload;
    };
    route.onSend = [
      ...(Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : []),
      settled,
    ];
  });
  registerCompression(app);

  // Follows the revision from the first load on (started below): it starts the log there.
  const delta = new DeltaLog(ctx.model);
  ctx.sync.follow(delta);
  const snapshot = new FlagSnapshot(ctx.model);
  const streams = new StreamHub(
    snapshot,
    delta,
    { maxConnections: ctx.config.streamingMaxConnections, heartbeatMs: ctx.config.streamingHeartbeatMs },
    async (authorization) =>
      (await resolveIdentity(ctx.db, ctx.identityCache, { authorization }))?.kind === 'token',
  );
  // Once the identity cache has forgotten what it resolved: every follower's swap runs first.
  ctx.sync.follow({
    load: async (_tx, changes) =>
      changes.full || changes.scopes.has('identity')
        ? () => queueMicrotask(() => void streams.recheck())
        : undefined,
  });
  // Streams never end by themselves: closing them lets the server stop (their clients reconnect).
  app.addHook('preClose', (done) => {
    streams.closeAll();
    done();
  });
  const shared: SharedParts = {
    snapshot,
    delta,
    streams,
    metrics: createMetricsBuffer(ctx),
    impact: createImpactMetricsBuffer(ctx),
    prometheus: createPrometheusMetrics(ctx),
    // One count for every way of asking for evaluations: the frontend API and OFREP alike.
    evaluations: limitSdkEvaluations(
      {
        perAddress: ctx.config.sdk.rateLimits.frontendFeatures,
        perToken: ctx.config.sdk.rateLimits.perToken,
      },
      'evaluations',
    ),
  };
  app.addHook('onClose', () => shared.metrics.close());
  app.addHook('onClose', () => shared.impact.close());
  for (const area of AREAS) app.register(areaPlugin(area, ctx, shared));
  await app.after();

  await ctx.sync.start();
  app.addHook('onClose', () => ctx.sync.stop());
  ctx.deliveries.start();
  app.addHook('onClose', () => ctx.deliveries.stop());
  const stopSuspending = runScheduledRequests(ctx);
  runProgressions(ctx);
  await checkSafeguards(ctx);
  ctx.jobs.start();
  app.addHook('onClose', async () => {
    stopSuspending();
    await ctx.jobs.stop();
  });
  const retention = startRetention(ctx);
  app.addHook('onClose', () => retention.stop());

  await app.ready();
  return app;
}

const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * An area's routes in a Fastify plugin of their own: they get every hook the root declared, and the
 * request timing of /internal-backstage/prometheus (the docs and the web UI's files are not timed).
 */
function areaPlugin(area: Area, ctx: AppContext, shared: SharedParts) {
  const plugin = async (scope: App) => {
    scope.addHook('onRoute', shared.prometheus.timeRoute);
    area.routes(scope, ctx, shared);
  };
  return Object.assign(plugin, { [DISPLAY_NAME]: area.name });
}
