import type { AppContext } from '../app-context.js';
import { featureNamedScope } from '../features/core/service.js';
import type { TokenIdentity } from '../http/identity.js';
import { limitSdkRequests } from '../http/rate-limit.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import type { ImpactMetricsBuffer } from '../impact-metrics/buffer.js';
import { observationsOf, tokenKeyOf } from '../impact-metrics/observations.js';
import type { MetricsBuffer } from './buffer.js';
import { MetricsBody, RawMetrics, RawMetricsParams, RawMetricsQuery } from './schemas.js';
import { createRawMetricsCache, readRawMetrics } from './service.js';

export function metricsRoutes(
  app: App,
  ctx: AppContext,
  buffer: MetricsBuffer,
  impact: ImpactMetricsBuffer,
): void {
  const cache = createRawMetricsCache(ctx);
  app.get(
    '/api/admin/client-metrics/features/:name/raw',
    {
      config: { permission: 'NONE', ...featureNamedScope(ctx.model, 'name') },
      schema: {
        tags: ['Metrics'],
        summary: 'Usage of a feature per application and environment, hour by hour',
        params: RawMetricsParams,
        querystring: RawMetricsQuery,
        response: { 200: RawMetrics },
      },
    },
    async (request) => readRawMetrics(ctx, cache, request.params.name, request.query.hoursBack),
  );

  // The environment is always the token's: an SDK cannot report for another one.
  const limits = ctx.config.sdk.rateLimits;
  for (const [path, status, sdkType, perAddress] of [
    ['/api/client/metrics', 202, 'backend', limits.clientMetrics],
    ['/api/frontend/client/metrics', 200, 'frontend', limits.frontendMetrics],
  ] as const) {
    app.post(
      path,
      {
        config: { permission: 'NONE' },
        onRequest: limitSdkRequests({ perAddress, perToken: limits.perToken }, 'SDK metrics'),
        schema: {
          tags: ['Client API'],
          summary: 'Usage counts from an SDK, summed in memory and written in batches',
          body: MetricsBody,
          response: { [status]: NoContent, 204: NoContent },
        },
      },
      async (request, reply) => {
        const token = identityOf(request) as TokenIdentity;
        const { appName, instanceId, sdkVersion, bucket, impactMetrics } = request.body;
        const measured = impactMetrics !== undefined && impactMetrics.length > 0;
        if (measured) impact.add(tokenKeyOf(token), observationsOf(impactMetrics, 'sdk'));
        if (!bucket || Object.keys(bucket.toggles).length === 0)
          return reply.code(measured ? status : 204).send();
        buffer.add({
          appName,
          instanceId: instanceId || 'default',
          environment: token.environment,
          clientIp: request.ip,
          sdkVersion,
          sdkType,
          start: new Date(bucket.start),
          toggles: bucket.toggles,
        });
        return reply.code(status).send();
      },
    );
  }
}
