import { accessRoutes } from './access/routes.js';
import { addonRoutes } from './addons/routes.js';
import type { AppContext } from './app-context.js';
import { applicationRoutes } from './applications/routes.js';
import { authRoutes } from './auth/routes.js';
import { bannerRoutes } from './banners/routes.js';
import { changeRequestRoutes } from './change-requests/routes.js';
import type { DeltaLog } from './client/delta.js';
import { frontendRoutes } from './client/frontend.js';
import { clientRoutes } from './client/routes.js';
import type { FlagSnapshot } from './client/snapshot.js';
import type { StreamHub } from './client/streaming.js';
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
import type { SdkEvaluationLimit } from './http/rate-limit.js';
import type { App } from './http/route.js';
import type { ImpactMetricsBuffer } from './impact-metrics/buffer.js';
import { impactMetricRoutes } from './impact-metrics/routes.js';
import { insightRoutes } from './insights/routes.js';
import { instanceStatsRoutes } from './instance-stats/routes.js';
import { jobRoutes } from './jobs/routes.js';
import { maintenanceRoutes } from './maintenance/routes.js';
import type { MetricsBuffer } from './metrics/buffer.js';
import { metricsRoutes } from './metrics/routes.js';
import { usageRoutes } from './metrics/usage-routes.js';
import { ofrepRoutes } from './ofrep/routes.js';
import { oidcRoutes } from './oidc/routes.js';
import { playgroundRoutes } from './playground/routes.js';
import { profileRoutes } from './profile/routes.js';
import { projectRoutes } from './projects/routes.js';
import type { PrometheusMetrics } from './prometheus/metrics.js';
import { prometheusRoutes } from './prometheus/routes.js';
import { releaseReader } from './release-plans/embedded.js';
import { releasePlanRoutes } from './release-plans/routes.js';
import { safeguardRoutes } from './release-plans/safeguards/routes.js';
import { releaseTemplateRoutes } from './release-templates/routes.js';
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

/** What some areas share with others, made once per app. */
export interface SharedParts {
  /** The flags the SDK side serves, from memory. */
  snapshot: FlagSnapshot;
  /** What each revision changed in the flags, for SDKs in delta mode. */
  delta: DeltaLog;
  /** The SDK streams this process holds. */
  streams: StreamHub;
  /** SDK metrics summed in memory until written. */
  metrics: MetricsBuffer;
  /** Impact metrics summed in memory until written. */
  impact: ImpactMetricsBuffer;
  prometheus: PrometheusMetrics;
  /** The address and token limits of flag evaluations for a context the caller makes up. */
  evaluations: SdkEvaluationLimit;
}

/** An area of the API: its routes, declared in a Fastify plugin of their own. */
export interface Area {
  name: string;
  routes: (app: App, ctx: AppContext, shared: SharedParts) => void;
}

/**
 * Every area of the API. Their order is that of the paths in the OpenAPI document; nothing else
 * depends on it: the hooks every route needs are declared at the root before any area.
 */
export const AREAS: readonly Area[] = [
  { name: 'prometheus', routes: (app, _ctx, shared) => prometheusRoutes(app, shared.prometheus.scrape) },
  { name: 'health', routes: healthRoutes },
  { name: 'auth', routes: authRoutes },
  { name: 'oidc', routes: oidcRoutes },
  { name: 'user', routes: userRoutes },
  { name: 'user-admin', routes: userAdminRoutes },
  { name: 'profile', routes: profileRoutes },
  { name: 'token', routes: tokenRoutes },
  { name: 'feedback', routes: feedbackRoutes },
  { name: 'event', routes: eventRoutes },
  { name: 'search', routes: searchRoutes },
  { name: 'project', routes: projectRoutes },
  { name: 'feature', routes: (app, ctx) => featureRoutes(app, ctx, releaseReader(ctx)) },
  { name: 'strategy-type', routes: strategyTypeRoutes },
  { name: 'feature-strategy', routes: featureStrategyRoutes },
  { name: 'feature-switch', routes: featureSwitchRoutes },
  { name: 'variant', routes: variantRoutes },
  { name: 'constraint', routes: constraintRoutes },
  { name: 'context', routes: contextRoutes },
  { name: 'project-context', routes: projectContextRoutes },
  { name: 'segment', routes: segmentRoutes },
  { name: 'feature-update', routes: featureUpdateRoutes },
  { name: 'archive', routes: archiveRoutes },
  { name: 'dependency', routes: dependencyRoutes },
  { name: 'lifecycle', routes: lifecycleRoutes },
  { name: 'link', routes: linkRoutes },
  { name: 'favorite', routes: favoriteRoutes },
  { name: 'insight', routes: insightRoutes },
  { name: 'feature-type', routes: featureTypeRoutes },
  { name: 'environment', routes: environmentRoutes },
  { name: 'change-request', routes: changeRequestRoutes },
  { name: 'release-template', routes: releaseTemplateRoutes },
  { name: 'release-plan', routes: releasePlanRoutes },
  { name: 'safeguard', routes: safeguardRoutes },
  { name: 'impact-metric', routes: impactMetricRoutes },
  { name: 'tag-type', routes: tagTypeRoutes },
  { name: 'tag', routes: tagRoutes },
  { name: 'feature-tag', routes: featureTagRoutes },
  { name: 'role', routes: roleRoutes },
  { name: 'group', routes: groupRoutes },
  { name: 'access', routes: accessRoutes },
  { name: 'project-token', routes: projectTokenRoutes },
  { name: 'signup', routes: signupRoutes },
  { name: 'settings', routes: settingsRoutes },
  { name: 'ui-config', routes: uiConfigRoutes },
  { name: 'application', routes: applicationRoutes },
  { name: 'banner', routes: bannerRoutes },
  { name: 'state', routes: stateRoutes },
  { name: 'features-batch', routes: featuresBatchRoutes },
  { name: 'addon', routes: addonRoutes },
  { name: 'maintenance', routes: maintenanceRoutes },
  { name: 'job', routes: jobRoutes },
  { name: 'instance-stats', routes: instanceStatsRoutes },
  { name: 'usage', routes: usageRoutes },
  { name: 'playground', routes: playgroundRoutes },
  // The SDK side: flags served from memory, metrics summed in memory.
  {
    name: 'client',
    routes: (app, ctx, shared) => clientRoutes(app, ctx, shared.snapshot, shared.delta, shared.streams),
  },
  {
    name: 'frontend',
    routes: (app, _ctx, shared) => frontendRoutes(app, shared.snapshot, shared.evaluations),
  },
  { name: 'ofrep', routes: (app, _ctx, shared) => ofrepRoutes(app, shared.snapshot, shared.evaluations) },
  { name: 'metrics', routes: (app, ctx, shared) => metricsRoutes(app, ctx, shared.metrics, shared.impact) },
  { name: 'edge', routes: (app, ctx, shared) => edgeRoutes(app, ctx, shared.metrics, shared.impact) },
];
