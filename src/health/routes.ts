import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { App } from '../http/route.js';

const Readiness = Type.Object({
  health: Type.Union([Type.Literal('READY'), Type.Literal('NOT_READY')]),
  database: Type.Union([Type.Literal('reachable'), Type.Literal('unreachable')]),
  revision: Type.Integer({ description: 'The configuration revision served; -1 before the first load' }),
  snapshotAgeMs: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Time since the served configuration was last confirmed to be the newest',
  }),
});

export function healthRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Health'],
        summary: 'Answers once the server is up; needs no credentials',
        response: { 200: Type.Object({ health: Type.Literal('GOOD') }) },
      },
    },
    async () => ({ health: 'GOOD' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['Health'],
        summary: 'Whether flags can be served: 503 until the configuration is first loaded',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      const { sync } = ctx;
      const body = {
        health: sync.ready ? ('READY' as const) : ('NOT_READY' as const),
        database: sync.databaseReachable ? ('reachable' as const) : ('unreachable' as const),
        revision: sync.revision,
        snapshotAgeMs: sync.lastConfirmedAt ? Date.now() - sync.lastConfirmedAt : null,
      };
      return reply.code(sync.ready ? 200 : 503).send(body);
    },
  );
}
