import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { Nullable } from '../http/schemas.js';
import { readFeatureTypes, updateLifetime } from './service.js';

const FeatureTypeSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  lifetimeDays: Nullable(Type.Integer()),
});

export function featureTypeRoutes(app: App, ctx: AppContext): void {
  const tags = ['Features'];

  app.get(
    '/api/admin/feature-types',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The feature types and their expected lifetimes',
        response: { 200: Type.Object({ version: Type.Literal(1), types: Type.Array(FeatureTypeSchema) }) },
      },
    },
    async () => readFeatureTypes(ctx.db),
  );

  app.put(
    '/api/admin/feature-types/:id/lifetime',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Set how many days a feature of this type is expected to live (null: forever)',
        params: Type.Object({ id: Type.String({ minLength: 1 }) }),
        body: Type.Object(
          { lifetimeDays: Nullable(Type.Integer({ minimum: 0, maximum: 2147483647 })) },
          { additionalProperties: false },
        ),
        response: { 200: FeatureTypeSchema },
      },
    },
    async (request) => updateLifetime(ctx, identityOf(request), request.params.id, request.body.lifetimeDays),
  );
}
