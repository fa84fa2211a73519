import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { ProjectParams } from '../projects/schemas.js';
import {
  ProjectTemplateParams,
  ProjectTemplatesQuery,
  TemplateBody,
  TemplateList,
  TemplateSchema,
} from './schemas.js';
import { archiveReleaseTemplate, changeTemplate, createTemplate, readTemplates } from './service.js';

const BASE = '/api/admin/projects/:projectId/release-templates';

/**
 * A project's own release templates (Unleash 8.0.3+): offered in that project only. Its Owners
 * manage them (UPDATE_PROJECT_RELEASE_TEMPLATE), as does whoever may manage every template; they
 * are read, and deleted, through the paths of every template as well.
 */
export function projectTemplateRoutes(app: App, ctx: AppContext, tags: string[]): void {
  app.get(
    BASE,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The project's release templates in use; with include=root, those of no project too",
        params: ProjectParams,
        querystring: ProjectTemplatesQuery,
        response: { 200: TemplateList },
      },
    },
    (request) => readTemplates(ctx, request.params.projectId, request.query.include === 'root'),
  );

  app.post(
    BASE,
    {
      config: { permission: ['RELEASE_PLAN_TEMPLATE_CREATE', 'UPDATE_PROJECT_RELEASE_TEMPLATE'] },
      schema: {
        tags,
        summary: 'Create a release template offered in this project only',
        params: ProjectParams,
        body: TemplateBody,
        response: { 200: TemplateSchema },
      },
    },
    (request) => createTemplate(ctx, identityOf(request), request.body, request.params.projectId),
  );

  app.put(
    `${BASE}/:id`,
    {
      config: { permission: ['RELEASE_PLAN_TEMPLATE_UPDATE', 'UPDATE_PROJECT_RELEASE_TEMPLATE'] },
      schema: {
        tags,
        summary: "Change one of the project's release templates; its milestones are replaced whole",
        params: ProjectTemplateParams,
        body: TemplateBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, id } = request.params;
      await changeTemplate(ctx, identityOf(request), id, request.body, projectId);
      return reply.send();
    },
  );

  app.post(
    `${BASE}/archive/:id`,
    {
      config: { permission: ['RELEASE_PLAN_TEMPLATE_DELETE', 'UPDATE_PROJECT_RELEASE_TEMPLATE'] },
      schema: {
        tags,
        summary: "Archive one of the project's release templates",
        params: ProjectTemplateParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, id } = request.params;
      await archiveReleaseTemplate(ctx, identityOf(request), id, projectId);
      return reply.send();
    },
  );
}
