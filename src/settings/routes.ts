import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { OidcSettingsBody, OidcSettingsSchema } from './schemas.js';
import { readOidcSettings, saveOidcSettings } from './service.js';

export function settingsRoutes(app: App, ctx: AppContext): void {
  const tags = ['Settings'];

  app.get(
    '/api/admin/auth/oidc/settings',
    {
      config: { permission: 'ADMIN' },
      schema: { tags, summary: 'The OpenID Connect settings', response: { 200: OidcSettingsSchema } },
    },
    async () => readOidcSettings(ctx.db),
  );

  app.post(
    '/api/admin/auth/oidc/settings',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'E6: replace the OpenID Connect settings',
        body: OidcSettingsBody,
        response: { 200: OidcSettingsSchema },
      },
    },
    async (request) => saveOidcSettings(ctx, actorOf(identityOf(request)), request.body),
  );
}
