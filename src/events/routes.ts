import type { AppContext } from '../app-context.js';
import type { App } from '../http/route.js';
import { EventList, EventQuery } from './schemas.js';
import { readEvents } from './service.js';

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
    async (request) => readEvents(ctx.db, request.query),
  );
}
