import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { BannerBody, BannerList, BannerParams, BannerSchema } from './schemas.js';
import { createBanner, readBanners, removeBanner, replaceBanner, switchBanner } from './service.js';

export function bannerRoutes(app: App, ctx: AppContext): void {
  const tags = ['Banners'];

  app.get(
    '/api/admin/banners',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'Every banner, shown or not', response: { 200: BannerList } },
    },
    async () => readBanners(ctx.db),
  );

  app.post(
    '/api/admin/banners',
    {
      config: { permission: 'UPDATE_INSTANCE_BANNERS' },
      schema: { tags, summary: 'Create a banner', body: BannerBody, response: { 201: BannerSchema } },
    },
    async (request, reply) => {
      const banner = await createBanner(ctx, identityOf(request), request.body);
      return reply.code(201).header('location', `banners/${banner.id}`).send(banner);
    },
  );

  app.put(
    '/api/admin/banners/:id',
    {
      config: { permission: 'UPDATE_INSTANCE_BANNERS' },
      schema: {
        tags,
        summary: 'Replace a banner (fields left out take their defaults)',
        params: BannerParams,
        body: BannerBody,
        response: { 200: BannerSchema },
      },
    },
    async (request) => replaceBanner(ctx, identityOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/admin/banners/:id',
    {
      config: { permission: 'UPDATE_INSTANCE_BANNERS' },
      schema: { tags, summary: 'Delete a banner', params: BannerParams, response: { 200: NoContent } },
    },
    async (request, reply) => {
      await removeBanner(ctx, identityOf(request), request.params.id);
      return reply.code(200).send();
    },
  );

  for (const [action, enabled] of [
    ['on', true],
    ['off', false],
  ] as const) {
    app.post(
      `/api/admin/banners/:id/${action}`,
      {
        config: { permission: 'UPDATE_INSTANCE_BANNERS' },
        schema: {
          tags,
          summary: enabled ? 'Show a banner' : 'Hide a banner',
          params: BannerParams,
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        await switchBanner(ctx, identityOf(request), request.params.id, enabled);
        return reply.code(200).send();
      },
    );
  }
}
