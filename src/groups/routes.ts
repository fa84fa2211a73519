import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { GroupBody, GroupList, GroupParams, GroupSchema } from './schemas.js';
import { createGroup, deleteGroup, readGroup, readGroups, updateGroup } from './service.js';

export function groupRoutes(app: App, ctx: AppContext): void {
  const tags = ['Groups'];

  app.get(
    '/api/admin/groups',
    {
      config: { permission: 'ADMIN' },
      schema: { tags, summary: 'Every group with its members', response: { 200: GroupList } },
    },
    async () => readGroups(ctx.db),
  );

  app.post(
    '/api/admin/groups',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Create a group',
        body: GroupBody,
        response: { 201: GroupSchema },
      },
    },
    async (request, reply) => {
      const group = await createGroup(ctx, actorOf(identityOf(request)), request.body);
      reply.code(201).header('location', `groups/${group.id}`);
      return group;
    },
  );

  app.get(
    '/api/admin/groups/:groupId',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'One group with all its members',
        params: GroupParams,
        response: { 200: GroupSchema },
      },
    },
    async (request) => readGroup(ctx.db, request.params.groupId),
  );

  app.put(
    '/api/admin/groups/:groupId',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Replace a group: name, description, SSO mappings, root role and members',
        params: GroupParams,
        body: GroupBody,
        response: { 200: GroupSchema },
      },
    },
    async (request) => updateGroup(ctx, actorOf(identityOf(request)), request.params.groupId, request.body),
  );

  app.delete(
    '/api/admin/groups/:groupId',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Delete a group; its members lose what it gave them',
        params: GroupParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await deleteGroup(ctx, actorOf(identityOf(request)), request.params.groupId);
      return reply.send();
    },
  );
}
