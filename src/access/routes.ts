import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  AddAccessBody,
  GroupRolesParams,
  ProjectAccess,
  ProjectAccessParams,
  RolesBody,
  UserRolesParams,
} from './schemas.js';
import { addAccess, readAccess, removeProjectRoles, setProjectRoles } from './service.js';

/** Admins, and whoever may update the project (its Owners). */
const PERMISSION = 'UPDATE_PROJECT';

export function accessRoutes(app: App, ctx: AppContext): void {
  const tags = ['Project access'];

  app.post(
    '/api/admin/projects/:projectId/access',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'Grant every listed role to every listed user and group in the project',
        params: ProjectAccessParams,
        body: AddAccessBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await addAccess(ctx, identityOf(request), request.params.projectId, request.body);
      return reply.send();
    },
  );

  app.get(
    '/api/admin/projects/:projectId/access',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'Who holds which roles in the project, and the roles that can be granted',
        params: ProjectAccessParams,
        response: { 200: ProjectAccess },
      },
    },
    async (request) => readAccess(ctx.db, request.params.projectId),
  );

  app.put(
    '/api/admin/projects/:projectId/users/:userId/roles',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: "Replace a user's roles in the project",
        params: UserRolesParams,
        body: RolesBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, userId } = request.params;
      await setProjectRoles(
        ctx,
        identityOf(request),
        projectId,
        { kind: 'user', id: userId },
        request.body.roles,
      );
      return reply.send();
    },
  );

  app.delete(
    '/api/admin/projects/:projectId/users/:userId/roles',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: "Remove all of a user's roles in the project",
        params: UserRolesParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, userId } = request.params;
      await removeProjectRoles(ctx, identityOf(request), projectId, { kind: 'user', id: userId });
      return reply.send();
    },
  );

  app.put(
    '/api/admin/projects/:projectId/groups/:groupId/roles',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: "Replace a group's roles in the project",
        params: GroupRolesParams,
        body: RolesBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, groupId } = request.params;
      await setProjectRoles(
        ctx,
        identityOf(request),
        projectId,
        { kind: 'group', id: groupId },
        request.body.roles,
      );
      return reply.send();
    },
  );

  app.delete(
    '/api/admin/projects/:projectId/groups/:groupId/roles',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: "Remove all of a group's roles in the project",
        params: GroupRolesParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, groupId } = request.params;
      await removeProjectRoles(ctx, identityOf(request), projectId, { kind: 'group', id: groupId });
      return reply.send();
    },
  );
}
