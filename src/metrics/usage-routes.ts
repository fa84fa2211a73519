import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { readEnvironmentInstances } from '../applications/service.js';
import { featureNamedScope } from '../features/core/service.js';
import type { App } from '../http/route.js';
import { Nullable, Timestamp } from '../http/schemas.js';
import {
  readApplicationOverview,
  readFeatureUsage,
  readOutdatedSdks,
  readProjectApplications,
  readUnknownFlags,
} from './usage.js';

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Names = Type.Array(Type.String());

const OutdatedSdks = Type.Object({
  sdks: Type.Array(Type.Object({ sdkVersion: Type.String(), applications: Names })),
});

const ApplicationOverview = Type.Object({
  projects: Names,
  featureCount: Type.Integer(),
  environments: Type.Array(
    Type.Object({
      name: Type.String(),
      instanceCount: Type.Integer(),
      sdks: Names,
      frontendSdks: Names,
      backendSdks: Names,
      lastSeen: Nullable(Timestamp),
      issues: Type.Object({ missingFeatures: Names, outdatedSdks: Names }),
    }),
  ),
  issues: Type.Object({ missingStrategies: Names }),
});

const EnvironmentInstances = Type.Object({
  instances: Type.Array(
    Type.Object({
      instanceId: Type.String(),
      sdkVersion: Nullable(Type.String()),
      clientIp: Nullable(Type.String()),
      lastSeen: Timestamp,
    }),
  ),
});

const FeatureUsage = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  maturity: Type.String(),
  featureName: Type.String(),
  lastHourUsage: Type.Array(
    Type.Object({
      environment: Type.String(),
      timestamp: Timestamp,
      yes: Type.Integer(),
      no: Type.Integer(),
    }),
  ),
  seenApplications: Names,
});

const UnknownFlags = Type.Object({
  unknownFlags: Type.Array(
    Type.Object({
      name: Type.String(),
      lastSeenAt: Timestamp,
      lastEventAt: Nullable(Timestamp),
      reports: Type.Array(
        Type.Object({
          appName: Type.String(),
          environments: Type.Array(Type.Object({ environment: Type.String(), seenAt: Timestamp })),
        }),
      ),
    }),
  ),
});

const ProjectApplications = Type.Object({
  total: Type.Integer(),
  applications: Type.Array(
    Type.Object({
      name: Type.String(),
      environments: Names,
      instances: Names,
      sdks: Type.Array(Type.Object({ name: Type.String(), versions: Names })),
    }),
  ),
});

const ProjectApplicationsQuery = Type.Object({
  query: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Comma-separated words matched in names' }),
  ),
  offset: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String({ description: '1 to 1000; 50 by default' })),
  sortBy: Type.Optional(Type.String({ description: 'The applications are sorted by name' })),
  sortOrder: Type.Optional(Type.String({ description: '`asc` (default) or `desc`' })),
});

/** What SDKs' registrations and metrics say, seen from applications, projects and flags. */
export function usageRoutes(app: App, ctx: AppContext): void {
  const tags = ['Metrics'];
  const read = { config: { permission: 'NONE' as const } };

  app.get(
    '/api/admin/metrics/applications/:appName/overview',
    {
      ...read,
      schema: {
        tags,
        summary: "An application's environments: instances, SDKs, flags asked for that do not exist",
        params: Type.Object({ appName: Name }),
        response: { 200: ApplicationOverview },
      },
    },
    async (request) => readApplicationOverview(ctx, request.params.appName, request.visibleProjects),
  );

  app.get(
    '/api/admin/metrics/instances/:appName/environment/:environment',
    {
      ...read,
      schema: {
        tags,
        summary: "An application's instances in one environment, seen in the last 24 hours",
        params: Type.Object({ appName: Name, environment: Name }),
        response: { 200: EnvironmentInstances },
      },
    },
    async (request) => readEnvironmentInstances(ctx.db, request.params.appName, request.params.environment),
  );

  app.get(
    '/api/admin/metrics/sdks/outdated',
    {
      ...read,
      schema: {
        tags,
        summary: 'SDK versions older than supported, and who runs them',
        response: { 200: OutdatedSdks },
      },
    },
    async () => readOutdatedSdks(ctx),
  );

  app.get(
    '/api/admin/projects/:projectId/sdks/outdated',
    {
      ...read,
      schema: {
        tags,
        summary: "Outdated SDK versions of the applications using the project's flags",
        params: Type.Object({ projectId: Name }),
        response: { 200: OutdatedSdks },
      },
    },
    async (request) => readOutdatedSdks(ctx, request.params.projectId),
  );

  app.get(
    '/api/admin/projects/:projectId/applications',
    {
      ...read,
      schema: {
        tags,
        summary: "The applications that use the project's flags",
        params: Type.Object({ projectId: Name }),
        querystring: ProjectApplicationsQuery,
        response: { 200: ProjectApplications },
      },
    },
    async (request) => readProjectApplications(ctx, request.params.projectId, request.query),
  );

  app.get(
    '/api/admin/client-metrics/features/:name',
    {
      config: { ...read.config, ...featureNamedScope(ctx.model, 'name') },
      schema: {
        tags,
        summary: "A flag's usage in the last hour per environment, and the applications using it",
        params: Type.Object({ name: Type.String({ minLength: 1 }) }),
        response: { 200: FeatureUsage },
      },
    },
    async (request) => readFeatureUsage(ctx, request.params.name),
  );

  app.get(
    '/api/admin/metrics/unknown-flags',
    {
      ...read,
      schema: {
        tags,
        summary: 'Flags SDKs reported in the last 24 hours that do not exist (1,000 at most)',
        response: { 200: UnknownFlags },
      },
    },
    async () => readUnknownFlags(ctx),
  );
}
