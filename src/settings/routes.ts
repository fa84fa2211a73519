import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import type { OidcSettings } from './schemas.js';
import { OidcSettingsBody, OidcSettingsSchema, SimpleSettingsBody } from './schemas.js';
import {
  type OidcProbe,
  readOidcSettings,
  readSimpleSettings,
  saveOidcSettings,
  saveSimpleSettings,
} from './service.js';

export function settingsRoutes(app: App, ctx: AppContext): void {
  const tags = ['Settings'];
  // Whether OIDC settings would let people sign in: the sign-in area asks the provider.
  const probe: OidcProbe = (settings: OidcSettings) => ctx.oidc.probe(settings);

  app.get(
    '/api/admin/auth/oidc/settings',
    {
      config: { permission: 'ADMIN' },
      schema: { tags, summary: 'The OpenID Connect settings', response: { 200: OidcSettingsSchema } },
    },
    async () => readOidcSettings(ctx),
  );

  app.post(
    '/api/admin/auth/oidc/settings',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Replace the OpenID Connect settings',
        description:
          'While password sign-in is off, settings that would not let anyone sign in (disabled, or a provider that does not answer discovery) are refused with 400.',
        body: OidcSettingsBody,
        response: { 200: OidcSettingsSchema },
      },
    },
    async (request) => saveOidcSettings(ctx, actorOf(identityOf(request)), request.body, probe),
  );

  app.get(
    '/api/admin/auth/simple/settings',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Whether signing in with a username and password is turned off',
        response: { 200: SimpleSettingsBody },
      },
    },
    async () => readSimpleSettings(ctx.db),
  );

  app.post(
    '/api/admin/auth/simple/settings',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Turn signing in with a username and password off, or on again',
        description:
          'Off only while OpenID Connect sign-in is enabled and its provider answers discovery (otherwise 400): nobody could sign in. API tokens and personal access tokens keep working.',
        body: SimpleSettingsBody,
        response: { 200: SimpleSettingsBody },
      },
    },
    async (request) => saveSimpleSettings(ctx, actorOf(identityOf(request)), request.body, probe),
  );
}
