import { Type } from '@sinclair/typebox';
import type { App } from '../http/route.js';
import type { PrometheusMetrics } from './metrics.js';

/**
 * GET /internal-backstage/prometheus, without credentials as in Unleash: expose it only where the
 * scraper can reach it (it names projects and counts flags).
 */
export function prometheusRoutes(app: App, scrape: PrometheusMetrics['scrape']): void {
  app.get(
    '/internal-backstage/prometheus',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Metrics in the Prometheus text format; needs no credentials',
        response: { 200: Type.String({ description: 'The Prometheus text exposition format' }) },
      },
    },
    async (_request, reply) => {
      const { contentType, text } = await scrape();
      return reply.type(contentType).send(text);
    },
  );
}
