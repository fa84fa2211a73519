import type { AppContext } from '../app-context.js';
import { readBaseGroups } from '../groups/service.js';
import type { App } from '../http/route.js';
import { identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  AdminCount,
  IdsBody,
  InactiveUsers,
  PasswordBody,
  SearchQuery,
  SearchResult,
  UsersGroupsBase,
} from './admin-schemas.js';
import {
  deleteInactiveUsers,
  readAdminCount,
  readBaseUsers,
  readInactiveUsers,
  readUserSearch,
} from './admin-service.js';
import { assertStrongPassword } from './password.js';

/** The user-admin paths beside a single user's: finding people, counting admins, clearing out. */
export function userAdminRoutes(app: App, ctx: AppContext): void {
  const tags = ['Users'];

  app.get(
    '/api/admin/user-admin/search',
    {
      // As Unleash: anyone signed in picks people (e.g. to give them access to a project).
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Users whose name, username or email contains `q`',
        querystring: SearchQuery,
        response: { 200: SearchResult },
      },
    },
    async (request) => readUserSearch(ctx.db, request.query.q ?? ''),
  );

  app.get(
    '/api/admin/user-admin/access',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Every user (with the root role) and every group, for the pages that grant access',
        response: { 200: UsersGroupsBase },
      },
    },
    async () => {
      const [users, groups] = await Promise.all([readBaseUsers(ctx.db), readBaseGroups(ctx.db)]);
      return { users, groups };
    },
  );

  app.get(
    '/api/admin/user-admin/admin-count',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'How many admins have a password, how many have none',
        response: { 200: AdminCount },
      },
    },
    async () => readAdminCount(ctx.db),
  );

  app.get(
    '/api/admin/user-admin/inactive',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Users who have neither signed in nor used a personal access token for 180 days',
        response: { 200: InactiveUsers },
      },
    },
    async () => readInactiveUsers(ctx.db),
  );

  app.post(
    '/api/admin/user-admin/inactive/delete',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Delete those of the listed users who are inactive',
        description:
          'Ids of users who are not inactive (or do not exist) are left alone. The caller and the last admin are never deleted. ' +
          'Each deletion is recorded as a `user-deleted` event.',
        body: IdsBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await deleteInactiveUsers(ctx, identityOf(request), request.body.ids);
      return reply.send();
    },
  );

  app.post(
    '/api/admin/user-admin/validate-password',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Whether a password meets the password rules',
        description:
          '200 when it does; otherwise 400 `ValidationError` with one `details` entry per rule it breaks.',
        body: PasswordBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      assertStrongPassword(request.body.password);
      return reply.send();
    },
  );
}
