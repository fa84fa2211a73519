import type { AppContext } from '../app-context.js';
import { favoriteProjectsOf } from '../favorites/service.js';
import { deleteProject } from '../features/core/project-changes.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  CreateProjectBody,
  ProjectDetails,
  ProjectList,
  ProjectParams,
  ProjectSchema,
  UpdateProjectBody,
} from './schemas.js';
import { createProject, readProject, readProjects, updateProject } from './service.js';

export function projectRoutes(app: App, ctx: AppContext): void {
  const tags = ['Projects'];

  app.get(
    '/api/admin/projects',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'Every project (your favorites marked)', response: { 200: ProjectList } },
    },
    async (request) =>
      readProjects(ctx.db, request.visibleProjects, await favoriteProjectsOf(ctx.db, identityOf(request))),
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

  app.put(
    '/api/admin/projects/:projectId',
    {
      config: { permission: 'UPDATE_PROJECT' },
      schema: {
        tags,
        summary: "Change a project's name, description, mode or default stickiness",
        params: ProjectParams,
        body: UpdateProjectBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await updateProject(ctx, identityOf(request), request.params.projectId, request.body);
      return reply.send();
    },
  );

  app.delete(
    '/api/admin/projects/:projectId',
    {
      config: { permission: 'DELETE_PROJECT' },
      schema: {
        tags,
        summary: 'Delete a project that holds no live features (its archived features go with it)',
        params: ProjectParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await deleteProject(ctx, identityOf(request), request.params.projectId);
      return reply.send();
    },
  );
}
