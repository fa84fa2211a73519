import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { milestoneRoutes } from './milestone-routes.js';
import { projectTemplateRoutes } from './project-routes.js';
import { TemplateBody, TemplateList, TemplateParams, TemplateSchema } from './schemas.js';
import {
  archiveReleaseTemplate,
  changeTemplate,
  createTemplate,
  deleteReleaseTemplate,
  readTemplate,
  readTemplates,
  templateNamedScope,
} from './service.js';

const BASE = '/api/admin/release-plan-templates';

export function releaseTemplateRoutes(app: App, ctx: AppContext): void {
  const tags = ['Release Plans'];
  // A template of a project may also be managed by that project's Owners.
  const scope = templateNamedScope(ctx);

  app.get(
    BASE,
    {
      // As in Unleash, there is no permission to read templates: anyone signed in may use them.
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The release templates in use of no project (offered in every project)',
        response: { 200: TemplateList },
      },
    },
    () => readTemplates(ctx),
  );

  app.post(
    BASE,
    {
      config: { permission: 'RELEASE_PLAN_TEMPLATE_CREATE' },
      schema: {
        tags,
        summary: 'Create a release template: ordered milestones, each a set of strategies',
        body: TemplateBody,
        response: { 200: TemplateSchema },
      },
    },
    (request) => createTemplate(ctx, identityOf(request), request.body),
  );

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'NONE', ...scope },
      schema: {
        tags,
        summary: 'One release template',
        params: TemplateParams,
        response: { 200: TemplateSchema },
      },
    },
    (request) => readTemplate(ctx, request.params.id),
  );

  app.put(
    `${BASE}/:id`,
    {
      config: { permission: ['RELEASE_PLAN_TEMPLATE_UPDATE', 'UPDATE_PROJECT_RELEASE_TEMPLATE'], ...scope },
      schema: {
        tags,
        summary: 'Change a release template; the milestones sent replace its milestones whole',
        params: TemplateParams,
        body: TemplateBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await changeTemplate(ctx, identityOf(request), request.params.id, request.body);
      return reply.send();
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: { permission: ['RELEASE_PLAN_TEMPLATE_DELETE', 'UPDATE_PROJECT_RELEASE_TEMPLATE'], ...scope },
      schema: {
        tags,
        summary: 'Delete a release template',
        params: TemplateParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await deleteReleaseTemplate(ctx, identityOf(request), request.params.id);
      return reply.send();
    },
  );

  app.post(
    `${BASE}/archive/:id`,
    {
      config: { permission: ['RELEASE_PLAN_TEMPLATE_DELETE', 'UPDATE_PROJECT_RELEASE_TEMPLATE'], ...scope },
      schema: {
        tags,
        summary: 'Archive a release template: it is no longer offered, and its name is free again',
        params: TemplateParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await archiveReleaseTemplate(ctx, identityOf(request), request.params.id);
      return reply.send();
    },
  );

  milestoneRoutes(app, ctx, tags);
  projectTemplateRoutes(app, ctx, tags);
}
