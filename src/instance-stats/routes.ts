import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { App } from '../http/route.js';
import { readInstanceStats, statsAsCsv } from './service.js';

const Count = Type.Integer({ minimum: 0 });

/** Unleash's `instanceAdminStatsSchema`. */
const InstanceStats = Type.Object({
  instanceId: Type.String(),
  timestamp: Type.String({ format: 'date-time' }),
  versionOSS: Type.String(),
  versionEnterprise: Type.String(),
  users: Count,
  previousDayMetricsBucketsCount: Type.Object({ enabledCount: Count, variantCount: Count }),
  activeUsers: Type.Object({ last7: Count, last30: Count, last60: Count, last90: Count }),
  licensedUsers: Count,
  productionChanges: Type.Object({ last30: Count, last60: Count, last90: Count }),
  featureToggles: Count,
  projects: Count,
  contextFields: Count,
  roles: Count,
  groups: Count,
  environments: Count,
  segments: Count,
  strategies: Count,
  SAMLenabled: Type.Boolean(),
  OIDCenabled: Type.Boolean(),
  clientApps: Type.Array(
    Type.Object({
      range: Type.Union([Type.Literal('allTime'), Type.Literal('30d'), Type.Literal('7d')]),
      count: Type.Integer(),
    }),
  ),
  featureExports: Count,
  featureImports: Count,
  apiTokens: Type.Object({ admin: Count, client: Count, frontend: Count }),
  maxEnvironmentStrategies: Count,
  maxConstraints: Count,
  maxConstraintValues: Count,
  releaseTemplates: Count,
  releasePlans: Count,
  edgeInstanceUsage: Type.Record(Type.String(), Type.Number({ minimum: 0 })),
  readOnlyUsers: Count,
  sum: Type.String(),
});

export function instanceStatsRoutes(app: App, ctx: AppContext): void {
  const tags = ['Instance Admin'];
  app.get(
    '/api/admin/instance-admin/statistics',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Counts of what this installation holds and how it is used (Admins only)',
        response: { 200: InstanceStats },
      },
    },
    async () => readInstanceStats(ctx),
  );

  app.get(
    '/api/admin/instance-admin/statistics/csv',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'The same statistics as a CSV file (Admins only)',
        response: { 200: Type.String({ description: 'A line of names and a line of values' }) },
      },
    },
    async (_request, reply) => {
      const stats = await readInstanceStats(ctx);
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="flagpole-${stats.instanceId}-${Date.now()}.csv"`,
        )
        .send(statsAsCsv(stats));
    },
  );
}
