import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { Nullable } from '../http/schemas.js';
import { readExternalSource, saveExternalSource, validateExternalSource } from './external.js';

const SOURCE = '/api/admin/impact-metrics/external-source';

const ExternalSource = Type.Object({
  enabled: Type.Boolean(),
  url: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 2000,
        description: "The Prometheus HTTP API's base URL; Basic-Auth credentials may be in it (shown hidden)",
      }),
    ),
  ),
});

/** The external source of impact metrics (a Prometheus): the Admin's, as Unleash has it. */
export function externalSourceRoutes(app: App, ctx: AppContext): void {
  const tags = ['Impact metrics'];

  app.get(
    SOURCE,
    {
      config: { permission: 'ADMIN' },
      schema: { tags, summary: 'The external source of impact metrics', response: { 200: ExternalSource } },
    },
    () => readExternalSource(ctx),
  );

  app.post(
    SOURCE,
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Set the external source: charts and safeguards with source "external" query it',
        body: ExternalSource,
        response: { 200: ExternalSource },
      },
    },
    (request) => saveExternalSource(ctx, actorOf(identityOf(request)), request.body),
  );

  app.post(
    `${SOURCE}/validate`,
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Ask a URL for the metric names its Prometheus has, before saving it',
        body: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000 }) }),
        response: {
          200: Type.Object({ metrics: Type.Array(Type.String()), error: Type.Optional(Type.String()) }),
        },
      },
    },
    (request) => validateExternalSource(ctx, request.body.url),
  );
}
