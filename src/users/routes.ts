import type { AppContext } from '../app-context.js';
import { createResetLink } from '../auth/reset-service.js';
import { NoAccessError } from '../http/errors.js';
import { actorOf } from '../http/identity.js';
import type { App } from '../http/route.js';
import { identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { changeOwnPassword, setPasswordOf } from './password-service.js';
import {
  ChangeOwnPasswordBody,
  CreateUserBody,
  CurrentUser,
  NewPasswordBody,
  ResetLink,
  ResetLinkBody,
  UpdateUserBody,
  UserIdParams,
  UserList,
  UserSchema,
} from './schemas.js';
import {
  changeUser,
  createUser,
  currentUser,
  describeUser,
  getUser,
  listUsersWithRoles,
  removeUser,
} from './service.js';

export function userRoutes(app: App, ctx: AppContext): void {
  const tags = ['Users'];

  app.get(
    '/api/admin/user',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'The caller, their permissions and feedback', response: { 200: CurrentUser } },
    },
    async (request) => currentUser(ctx, identityOf(request)),
  );

  app.post(
    '/api/admin/user/change-password',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "Change the caller's own password",
        body: ChangeOwnPasswordBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      if (identity.kind !== 'user') throw new NoAccessError('Only a user has a password to change.');
      await changeOwnPassword(ctx, actorOf(identity), identity.userId, request.body);
      return reply.send();
    },
  );

  app.get(
    '/api/admin/user-admin',
    {
      config: { permission: 'ADMIN' },
      schema: { tags, summary: 'Every user and the root roles', response: { 200: UserList } },
    },
    async () => listUsersWithRoles(ctx.db),
  );

  app.post(
    '/api/admin/user-admin',
    {
      config: { permission: 'ADMIN' },
      schema: { tags, summary: 'Create a user', body: CreateUserBody, response: { 201: UserSchema } },
    },
    async (request, reply) => {
      const user = await createUser(ctx, actorOf(identityOf(request)), request.body);
      reply.code(201).header('location', `user-admin/${user.id}`);
      return describeUser(user);
    },
  );

  app.post(
    '/api/admin/user-admin/reset-password',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Make a single-use password reset link for a user, valid 24 hours',
        body: ResetLinkBody,
        response: { 200: ResetLink },
      },
    },
    async (request) => createResetLink(ctx, actorOf(identityOf(request)), request.body.id),
  );

  app.get(
    '/api/admin/user-admin/:id',
    {
      config: { permission: 'ADMIN' },
      schema: { tags, summary: 'One user', params: UserIdParams, response: { 200: UserSchema } },
    },
    async (request) => describeUser(await getUser(ctx.db, request.params.id)),
  );

  app.put(
    '/api/admin/user-admin/:id',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: "Change a user's name, email or root role",
        params: UserIdParams,
        body: UpdateUserBody,
        response: { 200: UserSchema },
      },
    },
    async (request) =>
      describeUser(await changeUser(ctx, actorOf(identityOf(request)), request.params.id, request.body)),
  );

  app.delete(
    '/api/admin/user-admin/:id',
    {
      config: { permission: 'ADMIN' },
      schema: { tags, summary: 'Delete a user', params: UserIdParams, response: { 200: NoContent } },
    },
    async (request, reply) => {
      await removeUser(ctx, actorOf(identityOf(request)), request.params.id);
      return reply.send();
    },
  );

  app.post(
    '/api/admin/user-admin/:id/change-password',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: "Set a user's password",
        description:
          "As with a reset link, the user's sessions end and their personal access tokens are revoked.",
        params: UserIdParams,
        body: NewPasswordBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await setPasswordOf(ctx, actorOf(identityOf(request)), request.params.id, request.body.password);
      return reply.send();
    },
  );
}
