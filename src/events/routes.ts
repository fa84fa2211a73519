import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { App } from '../http/route.js';
import { EventList, EventQuery, FeatureEventQuery, FeatureEvents } from './schemas.js';
import { readEvents, readFeatureEvents } from './service.js';

export function eventRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/admin/events',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: ['Events'],
        summary: 'The audit log, newest first',
        querystring: EventQuery,
        response: { 200: EventList },
      },
    },
    async (request) =>
      readEvents(ctx.db, { ...request.query, hiddenProjects: [...request.visibleProjects.hidden] }),
  );

  app.get(
    '/api/admin/events/:featureName',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: ['Events'],
        summary: 'The events of one feature, newest first, one page at a time (none for a name never used)',
        params: Type.Object({ featureName: Type.String({ minLength: 1, maxLength: 255 }) }),
        querystring: FeatureEventQuery,
        response: { 200: FeatureEvents },
      },
    },
    async (request) =>
      readFeatureEvents(ctx.db, request.params.featureName, {
        ...request.query,
        hiddenProjects: [...request.visibleProjects.hidden],
      }),
  );
}
