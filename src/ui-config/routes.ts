import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { setFrontendApiOrigins } from '../settings/frontend-service.js';
import { SetCorsBody, TelemetrySettings, UiConfig } from './schemas.js';
import { readUiConfig } from './service.js';

export function uiConfigRoutes(app: App, ctx: AppContext): void {
  const tags = ['Admin UI'];

  app.get(
    '/api/admin/ui-config',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'What the admin UI needs to know about this server: version, address, allowed origins…',
        response: { 200: UiConfig },
      },
    },
    async () => readUiConfig(ctx),
  );

  app.get(
    '/api/admin/telemetry/settings',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: ['Telemetry'],
        summary: 'What this server reports home: nothing, as Flagpole has no version check and no telemetry',
        response: { 200: TelemetrySettings },
      },
    },
    // Flagpole never calls out, so both answers are false whatever the configuration says.
    async () => ({ versionInfoCollectionEnabled: false, featureInfoCollectionEnabled: false }),
  );

  app.post(
    '/api/admin/ui-config/cors',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary:
          'Set the origins whose pages may call the SDK paths (CORS), replacing UNLEASH_FRONTEND_API_ORIGINS',
        body: SetCorsBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await setFrontendApiOrigins(ctx, actorOf(identityOf(request)), request.body.frontendApiOrigins);
      return reply.code(204).send();
    },
  );
}
