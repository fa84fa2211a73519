import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { OwnRoles, Profile, RolesQuery } from './schemas.js';
import { readOwnRoles, readProfile } from './service.js';

/** What the signed-in user may read about their own standing. */
export function profileRoutes(app: App, ctx: AppContext): void {
  const tags = ['Users'];

  app.get(
    '/api/admin/user/profile',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The caller's root role, projects and groups",
        description: 'Needs a user (a session or a personal access token): an API token gets 401.',
        response: { 200: Profile },
      },
    },
    async (request) => readProfile(ctx.db, identityOf(request)),
  );

  app.get(
    '/api/admin/user/roles',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The caller's roles: root roles, then project roles, directly or through groups",
        description: 'Needs a user (a session or a personal access token): an API token gets 401.',
        querystring: RolesQuery,
        response: { 200: OwnRoles },
      },
    },
    async (request) => readOwnRoles(ctx.db, identityOf(request), request.query.projectId ?? null),
  );
}
