import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './route.js';
import { ErrorBody } from './schemas.js';

/**
 * OpenAPI 3 from the routes' own TypeBox schemas at /docs/json, browsable at /docs. Every route
 * also gets the shared error body for its 4xx/5xx answers, so errors are documented (and
 * serialized) the same way everywhere.
 */
export async function registerOpenApi(app: App): Promise<void> {
  app.addSchema(ErrorBody);
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.url.startsWith('/docs')) return;
    route.schema.response = {
      ...(route.schema.response as object | undefined),
      '4xx': { $ref: 'ErrorBody#' },
      '5xx': { $ref: 'ErrorBody#' },
    };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Flagpole',
        description:
          'An Unleash-compatible feature-flag server: admin API, client (SDK) API and frontend API.',
        version: '1',
      },
      components: {
        securitySchemes: {
          apiToken: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              'An API token (`*:*.<secret>`, `<project>:<env>.<secret>`) or a personal access token (`user:<secret>`).',
          },
          session: { type: 'apiKey', in: 'cookie', name: 'unleash-session' },
        },
      },
      security: [{ apiToken: [] }, { session: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
