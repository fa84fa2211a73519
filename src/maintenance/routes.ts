import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { readMaintenance, switchMaintenance } from './service.js';

const Maintenance = Type.Object({ enabled: Type.Boolean() });

export function maintenanceRoutes(app: App, ctx: AppContext): void {
  const tags = ['Maintenance'];

  app.get(
    '/api/admin/maintenance',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'Whether maintenance mode is on', response: { 200: Maintenance } },
    },
    async () => readMaintenance(ctx),
  );

  app.post(
    '/api/admin/maintenance',
    {
      config: { permission: 'ADMIN', duringMaintenance: true },
      schema: {
        tags,
        summary: 'Turn maintenance mode on (the admin API refuses changes) or off',
        body: Maintenance,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await switchMaintenance(ctx, actorOf(identityOf(request)), request.body.enabled);
      return reply.code(204).send();
    },
  );
}
