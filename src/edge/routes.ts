import type { AppContext } from '../app-context.js';
import type { TokenIdentity } from '../http/identity.js';
import { limitSdkRequests } from '../http/rate-limit.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import type { ImpactMetricsBuffer } from '../impact-metrics/buffer.js';
import { observationsOf, tokenKeyOf } from '../impact-metrics/observations.js';
import type { MetricsBuffer } from '../metrics/buffer.js';
import { BulkMetricsBody, TokenList, ValidatedTokens } from './schemas.js';
import { recordBulkMetrics, validateEdgeTokens } from './service.js';

/** What Unleash Edge asks of its upstream besides the SDK API. */
export function edgeRoutes(
  app: App,
  ctx: AppContext,
  buffer: MetricsBuffer,
  impact: ImpactMetricsBuffer,
): void {
  const tags = ['Unleash Edge'];

  // Public, as in Unleash: an Edge sends no credentials here, only the tokens it wants checked.
  app.post(
    '/edge/validate',
    {
      schema: {
        tags,
        summary: 'Which of these client and frontend tokens are valid, with their projects and environment',
        body: TokenList,
        response: { 200: ValidatedTokens },
      },
    },
    async (request) => validateEdgeTokens(ctx, request.body.tokens),
  );

  app.post(
    '/api/client/metrics/bulk',
    {
      config: { permission: 'NONE' },
      // The limit of an SDK's metrics posts: an Edge sends one where its SDKs sent many.
      onRequest: limitSdkRequests(
        { perAddress: ctx.config.sdk.rateLimits.clientMetrics, perToken: ctx.config.sdk.rateLimits.perToken },
        'Edge metrics',
      ),
      schema: {
        tags,
        summary: "Registrations and usage counts an Edge collected, for its token's environment",
        body: BulkMetricsBody,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      const token = identityOf(request) as TokenIdentity;
      await recordBulkMetrics(ctx, buffer, token, request.ip, request.body);
      const { impactMetrics } = request.body;
      if (impactMetrics?.length) impact.add(tokenKeyOf(token), observationsOf(impactMetrics, 'Edge'));
      return reply.code(202).send();
    },
  );
}
