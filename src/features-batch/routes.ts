import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { exportFeatures } from './export.js';
import { ExportQuery, ExportResult, ImportBody, ValidateResult } from './schemas.js';
import { IMPORT_PERMISSIONS, importFeatures, validateImport } from './service.js';

// Unleash's export and import of one project's features in one environment. Any signed-in user may
// export and validate (reads); an import checks the permissions of what it changes itself.
export function featuresBatchRoutes(app: App, ctx: AppContext): void {
  const tags = ['Import/Export'];

  app.post(
    '/api/admin/features-batch/export',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Export features (by name, tag or project) from one environment',
        body: ExportQuery,
        response: { 200: ExportResult },
      },
    },
    async (request, reply) => {
      const result = await exportFeatures(ctx, identityOf(request), request.visibleProjects, request.body);
      if (request.body.downloadFile) {
        const day = new Date().toISOString().slice(0, 10);
        reply.header('content-disposition', `attachment; filename="export-${day}.json"`);
      }
      return result;
    },
  );

  app.post(
    '/api/admin/features-batch/validate',
    {
      config: { permission: 'NONE', largeBody: IMPORT_PERMISSIONS },
      schema: {
        tags,
        summary:
          'What an import would do: errors, warnings and permissions lacking, before anything is written',
        body: ImportBody,
        response: { 200: ValidateResult },
      },
    },
    async (request) => validateImport(ctx, identityOf(request), request.visibleProjects, request.body),
  );

  app.post(
    '/api/admin/features-batch/import',
    {
      config: { permission: 'NONE', largeBody: IMPORT_PERMISSIONS },
      schema: {
        tags,
        summary: 'Import an export into one project and environment (all of it or nothing)',
        body: ImportBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await importFeatures(ctx, identityOf(request), request.visibleProjects, request.body);
      return reply.code(200).send();
    },
  );
}
