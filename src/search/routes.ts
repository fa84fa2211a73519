import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { readEventCreators, searchEvents } from './events.js';
import { searchFeatures } from './features.js';
import {
  EventCreators,
  EventSearchAnswer,
  EventSearchQuery,
  FeatureSearchAnswer,
  FeatureSearchQuery,
} from './schemas.js';

export function searchRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/admin/search/features',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: ['Search'],
        summary: 'Features of every project you may read, filtered, sorted and one page at a time',
        querystring: FeatureSearchQuery,
        response: { 200: FeatureSearchAnswer },
      },
    },
    async (request) => searchFeatures(ctx, identityOf(request), request.visibleProjects, request.query),
  );

  app.get(
    '/api/admin/search/events',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: ['Events'],
        summary: 'Audit events, filtered, newest first and one page at a time',
        querystring: EventSearchQuery,
        response: { 200: EventSearchAnswer },
      },
    },
    async (request) => searchEvents(ctx.db, request.visibleProjects, request.query),
  );

  app.get(
    '/api/admin/event-creators',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: ['Events'],
        summary: 'The users who made changes, by id (to search events by)',
        response: { 200: EventCreators },
      },
    },
    async () => readEventCreators(ctx.db),
  );
}
