import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  AddonBody,
  AddonList,
  AddonParams,
  AddonSchema,
  IntegrationEvents,
  IntegrationEventsQuery,
} from './schemas.js';
import {
  createAddon,
  readAddon,
  readAddons,
  readIntegrationEvents,
  removeAddon,
  replaceAddon,
} from './service.js';

export function addonRoutes(app: App, ctx: AppContext): void {
  const tags = ['Addons'];

  app.get(
    '/api/admin/addons',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Every integration (secrets masked) and the kinds Flagpole offers',
        response: { 200: AddonList },
      },
    },
    async () => readAddons(ctx),
  );

  app.post(
    '/api/admin/addons',
    {
      config: { permission: 'CREATE_ADDON' },
      schema: {
        tags,
        summary: 'Create an integration; its URL must be a public address or one the operator allowed',
        body: AddonBody,
        response: { 201: AddonSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createAddon(ctx, actorOf(identityOf(request)), request.body)),
  );

  app.get(
    '/api/admin/addons/:id',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'An integration, secrets masked',
        params: AddonParams,
        response: { 200: AddonSchema },
      },
    },
    async (request) => readAddon(ctx, request.params.id),
  );

  app.put(
    '/api/admin/addons/:id',
    {
      config: { permission: 'UPDATE_ADDON' },
      schema: {
        tags,
        summary: 'Replace an integration; a secret sent back masked (`*****`) keeps its value',
        params: AddonParams,
        body: AddonBody,
        response: { 200: AddonSchema },
      },
    },
    async (request) => replaceAddon(ctx, actorOf(identityOf(request)), request.params.id, request.body),
  );

  app.delete(
    '/api/admin/addons/:id',
    {
      config: { permission: 'DELETE_ADDON' },
      schema: {
        tags,
        summary: 'Delete an integration and its deliveries',
        params: AddonParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await removeAddon(ctx, actorOf(identityOf(request)), request.params.id);
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/addons/:id/events',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: "An integration's deliveries, newest first: the request made and how it went",
        params: AddonParams,
        querystring: IntegrationEventsQuery,
        response: { 200: IntegrationEvents },
      },
    },
    async (request) => readIntegrationEvents(ctx, request.params.id, request.query),
  );
}
