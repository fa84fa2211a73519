import type { AppContext } from '../app-context.js';
import type { App } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { ConstraintSchema } from './schemas.js';
import { validateOneConstraint } from './service.js';

export function constraintRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/api/admin/constraints/validate',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: ['Constraints'],
        summary: 'Check a constraint: 204 when valid, else 400 saying which field and why',
        body: ConstraintSchema,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      validateOneConstraint(ctx.model.contextRules(), request.body);
      return reply.code(204).send();
    },
  );
}
