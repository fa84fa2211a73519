import type { AppContext } from '../app-context.js';
import { actorOf, type TokenIdentity } from '../http/identity.js';
import { limitSdkRequests } from '../http/rate-limit.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { readApplication } from '../metrics/application-reads.js';
import {
  ApplicationDetails,
  ApplicationList,
  ApplicationListQuery,
  AppNameParams,
  CreateApplicationBody,
  RegisterBody,
} from './schemas.js';
import { readApplications, registerInstance, removeApplication, saveApplication } from './service.js';

function startedAt(started: string | number | undefined): Date | undefined {
  if (started === undefined) return undefined;
  const date = new Date(started);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function applicationRoutes(app: App, ctx: AppContext): void {
  const tags = ['Applications'];

  app.post(
    '/api/admin/metrics/applications/:appName',
    {
      config: { permission: 'UPDATE_APPLICATION' },
      schema: {
        tags,
        summary: 'Create the application in the path, or change the fields sent',
        params: AppNameParams,
        body: CreateApplicationBody,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      // The schema lets other fields through, as Unleash does; they are ignored, not stored.
      const { sdkVersion, strategies, url, color, icon, description } = request.body;
      const fields = Object.fromEntries(
        Object.entries({ sdkVersion, strategies, url, color, icon, description }).filter(
          ([, v]) => v !== undefined,
        ),
      );
      await saveApplication(ctx, actorOf(identityOf(request)), request.params.appName, fields);
      return reply.code(202).send();
    },
  );

  app.get(
    '/api/admin/metrics/applications',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The applications created or seen, a page at a time, with how many there are',
        querystring: ApplicationListQuery,
        response: { 200: ApplicationList },
      },
    },
    async (request) => readApplications(ctx.db, request.query),
  );

  app.get(
    '/api/admin/metrics/applications/:appName',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'An application with its instances, the SDK versions they run and the features they use',
        params: AppNameParams,
        response: { 200: ApplicationDetails },
      },
    },
    async (request) => readApplication(ctx.db, ctx.model, request.visibleProjects, request.params.appName),
  );

  app.delete(
    '/api/admin/metrics/applications/:appName',
    {
      config: { permission: 'UPDATE_APPLICATION' },
      schema: {
        tags,
        summary: 'Forget an application and its instances',
        params: AppNameParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await removeApplication(ctx, actorOf(identityOf(request)), request.params.appName);
      return reply.send();
    },
  );

  const limits = ctx.config.sdk.rateLimits;
  for (const [path, status, sdkType, perAddress] of [
    ['/api/client/register', 202, 'backend', limits.clientRegister],
    ['/api/frontend/client/register', 200, 'frontend', limits.frontendRegister],
  ] as const) {
    app.post(
      path,
      {
        config: { permission: 'NONE' },
        onRequest: limitSdkRequests({ perAddress, perToken: limits.perToken }, 'SDK registrations'),
        schema: {
          tags: ['Client API'],
          summary: 'An SDK announces itself when it starts',
          body: RegisterBody,
          response: { [status]: NoContent },
        },
      },
      async (request, reply) => {
        const token = identityOf(request) as TokenIdentity;
        const body = request.body;
        await registerInstance(ctx, actorOf(token), {
          appName: body.appName,
          instanceId: body.instanceId || 'default',
          environment: token.environment,
          sdkVersion: body.sdkVersion,
          strategies: body.strategies,
          startedAt: startedAt(body.started),
          intervalMs: body.interval,
          clientIp: request.ip,
          sdkType,
        });
        return reply.code(status).send();
      },
    );
  }
}
