import type { AppContext } from '../app-context.js';
import type { App } from '../http/route.js';
import {
  AdvancedPlaygroundBody,
  AdvancedPlaygroundResponseText,
  PlaygroundBody,
  PlaygroundResponseText,
} from './schemas.js';
import { readAdvancedPlayground, readPlayground } from './service.js';

/**
 * Tries a context out: the chosen projects' features evaluated in memory, with the evaluation the
 * frontend API uses, each with its reasons. Any signed-in user may, as every user may read flags.
 */
export function playgroundRoutes(app: App, ctx: AppContext): void {
  const tags = ['Playground'];

  app.post(
    '/api/admin/playground',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary:
          'Evaluate the features of the chosen projects in one environment for a context, with the reasons',
        body: PlaygroundBody,
        response: { 200: PlaygroundResponseText },
      },
    },
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send(readPlayground(ctx.model, request.body, request.visibleProjects)),
  );

  app.post(
    '/api/admin/playground/advanced',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary:
          'As the playground, in several environments and for every combination of comma-separated context values',
        body: AdvancedPlaygroundBody,
        response: { 200: AdvancedPlaygroundResponseText },
      },
    },
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        // Bytes, sent as they are: the answer's text was made already.
        .send((await readAdvancedPlayground(ctx.model, request.body, request.visibleProjects)) as never),
  );
}
