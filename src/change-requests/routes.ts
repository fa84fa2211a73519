import type { AppContext } from '../app-context.js';
import { ProjectEnvironmentParams } from '../environments/schemas.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { ProjectParams } from '../projects/schemas.js';
import { configureChangeRequests, readChangeRequestConfig } from './config.js';
import { changeRequestLifeRoutes } from './request-routes.js';
import { changeRequestReviewRoutes } from './review-routes.js';
import { ChangeRequestConfigBody, ChangeRequestConfigList } from './schemas.js';

export function changeRequestRoutes(app: App, ctx: AppContext): void {
  const tags = ['Change Requests'];

  app.get(
    '/api/admin/projects/:projectId/change-requests/config',
    {
      // Whether an environment needs change requests is what every editor of the project must know.
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Which environments of the project need change requests, and how many approvals',
        params: ProjectParams,
        response: { 200: ChangeRequestConfigList },
      },
    },
    async (request) => readChangeRequestConfig(ctx, request.params.projectId),
  );

  app.put(
    '/api/admin/projects/:projectId/environments/:environment/change-requests/config',
    {
      config: { permission: ['UPDATE_PROJECT', 'PROJECT_CHANGE_REQUEST_WRITE'] },
      schema: {
        tags,
        summary: 'Turn change requests on or off in an environment of the project',
        params: ProjectEnvironmentParams,
        body: ChangeRequestConfigBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, environment } = request.params;
      await configureChangeRequests(ctx, identityOf(request), projectId, environment, request.body);
      return reply.send();
    },
  );

  changeRequestLifeRoutes(app, ctx, tags);
  changeRequestReviewRoutes(app, ctx, tags);
}
