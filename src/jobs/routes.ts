import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { App } from '../http/route.js';
import { Nullable, Timestamp } from '../http/schemas.js';
import { listJobs } from './store.js';

const JobList = Type.Object({
  jobs: Type.Array(
    Type.Object({
      id: Type.Integer(),
      kind: Type.String({
        description: 'What it does, e.g. `change-request`: apply a scheduled change request',
      }),
      key: Type.String({ description: 'What it is about within its kind, e.g. the change request id' }),
      state: Type.String({ description: '`pending`, `done`, `failed` or `cancelled`' }),
      runAt: Timestamp,
      attempts: Type.Integer(),
      lastError: Nullable(Type.String()),
      createdAt: Timestamp,
      finishedAt: Nullable(Timestamp),
    }),
  ),
});

/** The background jobs, newest first: what Admins look at when a schedule did not happen. */
export function jobRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/admin/jobs',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags: ['Jobs'],
        summary:
          'The last 200 background jobs (scheduled change requests): when due, how they ended, why they failed',
        response: { 200: JobList },
      },
    },
    async () => ({ jobs: await listJobs(ctx.db, 200) }),
  );
}
