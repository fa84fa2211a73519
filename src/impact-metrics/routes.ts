import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { getModelFeature } from '../features/core/service.js';
import { ValidationError } from '../http/errors.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { type ChartOwner, deleteChart, displayNameOf, readConfigs, saveChart } from './configs.js';
import { externalMetadata, queryExternal } from './external.js';
import { externalSourceRoutes } from './external-routes.js';
import type { MetricType } from './observations.js';
import { prometheusChunks } from './prometheus.js';
import { parseSelectors, querySeries } from './query.js';
import {
  ConfigBody,
  ConfigList,
  ConfigParams,
  ConfigSchema,
  FlagConfigItemParams,
  FlagConfigParams,
  Metadata,
  RegisterBody,
  SeriesAnswer,
  SeriesQuery,
} from './schemas.js';
import { listMetrics, registerMetric } from './store.js';

const IMPACT = '/api/admin/impact-metrics';
const FLAG_CONFIG = '/api/admin/projects/:projectId/features/:featureName/impact-metrics/config';

/**
 * Impact metrics (Unleash Enterprise's, open here): what SDKs measure around their flags, as
 * charts. Anyone signed in reads them (a safeguard's editor picks its metric); the instance's
 * charts and registrations are the Admin's, a flag's charts its project's editors'.
 */
export function impactMetricRoutes(app: App, ctx: AppContext): void {
  const tags = ['Impact metrics'];

  app.get(
    `${IMPACT}/`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'A metric over a range, aggregated per step; with mode=edit also the labels it has',
        querystring: SeriesQuery,
        response: { 200: SeriesAnswer },
      },
    },
    (request) => {
      const q = request.query;
      const query = {
        metricName: q.metricName,
        range: q.range ?? 'hour',
        aggregationMode: q.aggregationMode,
        selectors: parseSelectors(q.labels),
      };
      const withLabels = q.mode !== 'display';
      return q.source === 'external'
        ? queryExternal(ctx, query, withLabels)
        : querySeries(ctx.db, query, withLabels);
    },
  );

  app.get(
    `${IMPACT}/metadata`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The metrics SDKs reported or Admins registered',
        response: { 200: Metadata },
      },
    },
    async () => {
      const described =
        (source: 'internal' | 'external') => (m: { name: string; help: string; type: MetricType }) => ({
          name: m.name,
          help: m.help,
          displayName: displayNameOf(m.name),
          type: m.type,
          source,
        });
      return {
        metrics: [
          ...(await listMetrics(ctx.db)).map(described('internal')),
          ...(await externalMetadata(ctx)).map(described('external')),
        ],
      };
    },
  );

  app.post(
    `${IMPACT}/register`,
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Name a metric and its type before SDKs report it',
        body: RegisterBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { name, type, help } = request.body;
      const stored = await registerMetric(ctx.db, { name, type, help: help ?? '' });
      if (stored?.type !== type) {
        throw new ValidationError(`The metric "${name}" is a ${stored?.type}, not a ${type}.`, [
          { message: `type must be ${stored?.type}, the type of the metric`, path: 'type' },
        ]);
      }
      return reply.code(204).send();
    },
  );

  externalSourceRoutes(app, ctx);
  chartRoutes(app, ctx, IMPACT, 'ADMIN', () => null, ConfigParams);
  chartRoutes(
    app,
    ctx,
    FLAG_CONFIG.replace(/\/config$/, ''),
    'UPDATE_FEATURE',
    (params) => {
      const p = params as { projectId: string; featureName: string };
      getModelFeature(ctx.model, p.projectId, p.featureName);
      return { project: p.projectId, feature: p.featureName };
    },
    FlagConfigItemParams,
    FlagConfigParams,
  );

  // Unleash's Prometheus scrapes this, without credentials, as it does /internal-backstage/prometheus.
  app.get(
    '/internal-backstage/impact/metrics',
    {
      schema: {
        tags: ['Operations'],
        summary:
          'Impact metrics in the Prometheus text format (totals since the data kept began); needs no credentials',
        // Text, sent as a stream while it is made.
        response: { 200: Type.Unsafe<Readable>({ type: 'string' }) },
      },
    },
    async (_request, reply) =>
      reply.type('text/plain; version=0.0.4; charset=utf-8').send(Readable.from(prometheusChunks(ctx.db))),
  );
}

function chartRoutes(
  app: App,
  ctx: AppContext,
  base: string,
  permission: 'ADMIN' | 'UPDATE_FEATURE',
  ownerOf: (params: unknown) => ChartOwner,
  itemParams: typeof ConfigParams | typeof FlagConfigItemParams,
  listParams?: typeof FlagConfigParams,
): void {
  const tags = ['Impact metrics'];
  const whose = permission === 'ADMIN' ? "the instance's" : "the flag's";
  app.get(
    `${base}/config`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: `The charts of ${whose} impact metrics`,
        ...(listParams ? { params: listParams } : {}),
        response: { 200: ConfigList },
      },
    },
    (request) => readConfigs(ctx.db, ownerOf(request.params)),
  );
  app.post(
    `${base}/config`,
    {
      config: { permission },
      schema: {
        tags,
        summary: `Save a chart of ${whose} impact metrics (with an id: in place of that one)`,
        ...(listParams ? { params: listParams } : {}),
        body: ConfigBody,
        response: { 200: ConfigSchema },
      },
    },
    (request) => saveChart(ctx, actorOf(identityOf(request)), ownerOf(request.params), request.body),
  );
  app.delete(
    `${base}/config/:id`,
    {
      config: { permission },
      schema: {
        tags,
        summary: `Delete a chart of ${whose}`,
        params: itemParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await deleteChart(
        ctx,
        actorOf(identityOf(request)),
        ownerOf(request.params),
        (request.params as { id: string }).id,
      );
      return reply.code(204).send();
    },
  );
}
