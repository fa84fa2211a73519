import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { exportState } from './export.js';
import { StateDocument, StateExport, StateQuery } from './schemas.js';
import { type StateDocument as Document, importState } from './service.js';

export function stateRoutes(app: App, ctx: AppContext): void {
  const tags = ['Import/Export'];

  app.post(
    '/api/admin/state/import',
    {
      config: { permission: 'ADMIN', largeBody: ['ADMIN'] },
      schema: {
        tags,
        summary: 'E5: import a whole configuration state (all of it or nothing)',
        body: StateDocument,
        querystring: StateQuery,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      await importState(ctx, actorOf(identityOf(request)), request.body as Document, request.query);
      return reply.code(202).send();
    },
  );

  app.get(
    '/api/admin/state/export',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'The whole configuration as a state document an import reads back',
        response: { 200: StateExport },
      },
    },
    async () => exportState(ctx),
  );
}
