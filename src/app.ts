import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyRequest, LogController } from 'fastify';
import { accessRoutes } from './access/routes.js';
import { addonRoutes } from './addons/routes.js';
import type { AppContext } from './app-context.js';
import { applicationRoutes } from './applications/routes.js';
import { resolveIdentity } from './auth/resolve-identity.js';
import { authRoutes } from './auth/routes.js';
import { bannerRoutes } from './banners/routes.js';
import { requireDeclaredChanges } from './changes/route-config.js';
import { frontendRoutes } from './client/frontend.js';
import { clientRoutes } from './client/routes.js';
import { FlagSnapshot } from './client/snapshot.js';
import { constraintRoutes } from './constraints/routes.js';
import { projectContextRoutes } from './context/project-routes.js';
import { contextRoutes } from './context/routes.js';
import { edgeRoutes } from './edge/routes.js';
import { environmentRoutes } from './environments/routes.js';
import { eventRoutes } from './events/routes.js';
import { favoriteRoutes } from './favorites/routes.js';
import { featureTypeRoutes } from './feature-types/routes.js';
import { archiveRoutes } from './features/archive/routes.js';
import { featureRoutes } from './features/core/routes.js';
import { featureUpdateRoutes } from './features/core/update-routes.js';
import { dependencyRoutes } from './features/dependencies/routes.js';
import { featureSwitchRoutes } from './features/environments/routes.js';
import { lifecycleRoutes } from './features/lifecycle/routes.js';
import { linkRoutes } from './features/links/routes.js';
import { featureStrategyRoutes } from './features/strategies/routes.js';
import { featureTagRoutes } from './features/tags/routes.js';
import { variantRoutes } from './features/variants/routes.js';
import { featuresBatchRoutes } from './features-batch/routes.js';
import { feedbackRoutes } from './feedback/routes.js';
import { groupRoutes } from './groups/routes.js';
import { healthRoutes } from './health/routes.js';
import { answerUnroutable, registerAuthentication, registerNotFound } from './http/auth.js';
import { BODY_LIMIT, registerBodyParsers } from './http/body.js';
import { answerClientError, requireHostHeader } from './http/client-errors.js';
import { registerCors } from './http/cors.js';
import { drainOnClose } from './http/drain.js';
import { registerErrorHandler } from './http/errors.js';
import { registerOpenApi } from './http/openapi.js';
import { fastifyTrustProxy } from './http/proxy.js';
import { type App, isReadOnly, isSdkRoute } from './http/route.js';
import { lazySerializers, registerValidation } from './http/validation.js';
import { insightRoutes } from './insights/routes.js';
import { instanceStatsRoutes } from './instance-stats/routes.js';
import { registerMaintenanceGate } from './maintenance/gate.js';
import { maintenanceRoutes } from './maintenance/routes.js';
import { metricsRoutes } from './metrics/routes.js';
import { createMetricsBuffer } from './metrics/service.js';
import { usageRoutes } from './metrics/usage-routes.js';
import { oidcRoutes } from './oidc/routes.js';
import { playgroundRoutes } from './playground/routes.js';
import { profileRoutes } from './profile/routes.js';
import { projectRoutes } from './projects/routes.js';
import { prometheusRoutes } from './prometheus/routes.js';
import { startRetention } from './retention.js';
import { roleRoutes } from './roles/routes.js';
import { searchRoutes } from './search/routes.js';
import { segmentRoutes } from './segments/routes.js';
import { settingsRoutes } from './settings/routes.js';
import { signupRoutes } from './signup/routes.js';
import { stateRoutes } from './state/routes.js';
import { strategyTypeRoutes } from './strategies/routes.js';
import { tagTypeRoutes } from './tag-types/routes.js';
import { tagRoutes } from './tags/routes.js';
import { projectTokenRoutes } from './tokens/project-routes.js';
import { tokenRoutes } from './tokens/routes.js';
import { uiConfigRoutes } from './ui-config/routes.js';
import { userAdminRoutes } from './users/admin-routes.js';
import { userRoutes } from './users/routes.js';
import { webRoutes } from './web/routes.js';

/** The HTTP application, not yet listening: plugins and hooks first, then every area's routes. */
export async function buildApp(ctx: AppContext): Promise<App> {
  const identify = (request: FastifyRequest) => resolveIdentity(ctx.db, ctx.identityCache, request.headers);
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

  // First: it times every route declared after it.
  prometheusRoutes(app, ctx);
  healthRoutes(app, ctx);
  authRoutes(app, ctx);
  oidcRoutes(app, ctx);
  userRoutes(app, ctx);
  userAdminRoutes(app, ctx);
  profileRoutes(app, ctx);
  tokenRoutes(app, ctx);
  feedbackRoutes(app, ctx);
  eventRoutes(app, ctx);
  searchRoutes(app, ctx);
  projectRoutes(app, ctx);
  featureRoutes(app, ctx);
  strategyTypeRoutes(app, ctx);
  featureStrategyRoutes(app, ctx);
  featureSwitchRoutes(app, ctx);
  variantRoutes(app, ctx);
  constraintRoutes(app, ctx);
  contextRoutes(app, ctx);
  projectContextRoutes(app, ctx);
  segmentRoutes(app, ctx);
  featureUpdateRoutes(app, ctx);
  archiveRoutes(app, ctx);
  dependencyRoutes(app, ctx);
  lifecycleRoutes(app, ctx);
  linkRoutes(app, ctx);
  favoriteRoutes(app, ctx);
  insightRoutes(app, ctx);
  featureTypeRoutes(app, ctx);
  environmentRoutes(app, ctx);
  tagTypeRoutes(app, ctx);
  tagRoutes(app, ctx);
  featureTagRoutes(app, ctx);
  roleRoutes(app, ctx);
  groupRoutes(app, ctx);
  accessRoutes(app, ctx);
  projectTokenRoutes(app, ctx);
  signupRoutes(app, ctx);
  settingsRoutes(app, ctx);
  uiConfigRoutes(app, ctx);
  applicationRoutes(app, ctx);
  bannerRoutes(app, ctx);
  stateRoutes(app, ctx);
  featuresBatchRoutes(app, ctx);
  addonRoutes(app, ctx);
  maintenanceRoutes(app, ctx);
  instanceStatsRoutes(app, ctx);
  usageRoutes(app, ctx);
  playgroundRoutes(app, ctx);

  // The SDK side: flags served from memory, metrics summed in memory.
  const snapshot = new FlagSnapshot(ctx.model);
  clientRoutes(app, ctx, snapshot);
  frontendRoutes(app, ctx, snapshot);
  const metrics = createMetricsBuffer(ctx);
  metricsRoutes(app, ctx, metrics);
  edgeRoutes(app, ctx, metrics);
  app.addHook('onClose', () => metrics.close());

  await ctx.sync.start();
  app.addHook('onClose', () => ctx.sync.stop());
  ctx.deliveries.start();
  app.addHook('onClose', () => ctx.deliveries.stop());
  const retention = startRetention(ctx);
  app.addHook('onClose', () => retention.stop());

  await app.ready();
  return app;
}
