import { Type } from '@sinclair/typebox';
import type { App } from '../http/route.js';

export function healthRoutes(app: App): void {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Health'],
        summary: 'Answers once the server is ready; needs no credentials',
        response: { 200: Type.Object({ health: Type.Literal('GOOD') }) },
      },
    },
    async () => ({ health: 'GOOD' as const }),
  );
}
