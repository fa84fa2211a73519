import type { AppContext } from '../context.js';
import { type App, identityOf } from '../http/route.js';
import { CreateProjectBody, ProjectDetails, ProjectList, ProjectParams, ProjectSchema } from './schemas.js';
import { createProject, readProject, readProjects } from './service.js';

export function projectRoutes(app: App, ctx: AppContext): void {
  const tags = ['Projects'];

  app.get(
    '/api/admin/projects',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'Every project', response: { 200: ProjectList } },
    },
    async () => readProjects(ctx.db),
  );

  app.post(
    '/api/admin/projects',
    {
      config: { permission: 'CREATE_PROJECT' },
      schema: {
        tags,
        summary: 'Create a project, linked to every enabled environment',
        body: CreateProjectBody,
        response: { 201: ProjectSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createProject(ctx, identityOf(request), request.body)),
  );

  app.get(
    '/api/admin/projects/:projectId',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'One project', params: ProjectParams, response: { 200: ProjectDetails } },
    },
    async (request) => readProject(ctx.db, request.params.projectId),
  );
}
