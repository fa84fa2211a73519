import type { AppContext } from '../app-context.js';
import type { Permission } from '../http/permissions.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  PermissionList,
  RoleBody,
  RoleList,
  RoleParams,
  RoleWithPermissions,
  RoleWithVersion,
} from './schemas.js';
import { createRole, deleteRole, readPermissions, readRole, readRoles, updateRole } from './service.js';

/** Whoever may manage roles may read them. */
const ROLE_MANAGERS: readonly Permission[] = ['CREATE_ROLE', 'UPDATE_ROLE', 'DELETE_ROLE'];

export function roleRoutes(app: App, ctx: AppContext): void {
  const tags = ['Roles'];

  app.get(
    '/api/admin/roles',
    {
      config: { permission: ROLE_MANAGERS },
      schema: { tags, summary: 'Every role, built in and custom', response: { 200: RoleList } },
    },
    async () => readRoles(ctx.db),
  );

  app.post(
    '/api/admin/roles',
    {
      config: { permission: 'CREATE_ROLE' },
      schema: {
        tags,
        summary: 'Create a custom root role (root-custom) or project role (custom)',
        body: RoleBody,
        response: { 201: RoleWithVersion },
      },
    },
    async (request, reply) => {
      const created = await createRole(ctx, identityOf(request), request.body);
      reply.code(201).header('location', `roles/${created.roles.id}`);
      return created;
    },
  );

  app.get(
    '/api/admin/roles/:id',
    {
      config: { permission: ROLE_MANAGERS },
      schema: {
        tags,
        summary: 'One role with its permissions',
        params: RoleParams,
        response: { 200: RoleWithPermissions },
      },
    },
    async (request) => readRole(ctx.db, request.params.id),
  );

  app.put(
    '/api/admin/roles/:id',
    {
      config: { permission: 'UPDATE_ROLE' },
      schema: {
        tags,
        summary: 'Update a custom role; given permissions replace the old ones',
        params: RoleParams,
        body: RoleBody,
        response: { 200: RoleWithVersion },
      },
    },
    async (request) => updateRole(ctx, identityOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/admin/roles/:id',
    {
      config: { permission: 'DELETE_ROLE' },
      schema: {
        tags,
        summary: 'Delete a custom role that nobody holds',
        params: RoleParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await deleteRole(ctx, identityOf(request), request.params.id);
      return reply.send();
    },
  );

  app.get(
    '/api/admin/permissions',
    {
      config: { permission: ROLE_MANAGERS },
      schema: {
        tags,
        summary: 'Every permission a role can hold: instance-wide, per project, per environment',
        response: { 200: PermissionList },
      },
    },
    async () => readPermissions(ctx.db),
  );
}
