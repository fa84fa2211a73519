import type { TSchema } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { Identity } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { ProjectParams } from '../projects/schemas.js';
import { readPersonalDashboard, readPersonalProject } from './dashboard-service.js';
import {
  FlagCreators,
  FlagCreatorsPage,
  FlagCreatorsQuery,
  PersonalDashboard,
  PersonalProject,
  ProjectDora,
  ProjectHealthReport,
  ProjectInsights,
  ProjectOverview,
  ProjectStatus,
} from './schemas.js';
import {
  readFlagCreators,
  readFlagCreatorsAcross,
  readProjectDora,
  readProjectHealthReport,
  readProjectInsights,
  readProjectOverview,
  readProjectStatus,
} from './service.js';

/** What the admin UI shows about a project and about the signed-in user's own work. */
export function insightRoutes(app: App, ctx: AppContext): void {
  const tags = ['Projects'];
  // The project reads share their shape: a project in the path, any caller.
  const projectRead = (
    path: string,
    summary: string,
    schema: TSchema,
    read: (project: string, identity: Identity) => Promise<unknown>,
  ) =>
    app.get(
      `/api/admin/projects/:projectId/${path}`,
      {
        config: { permission: 'NONE' },
        schema: { tags, summary, params: ProjectParams, response: { 200: schema } },
      },
      async (request) => read(request.params.projectId, identityOf(request)),
    );

  projectRead(
    'overview',
    'The project with its settings, health, environments, feature types and 30-day statistics',
    ProjectOverview,
    (project, identity) => readProjectOverview(ctx, identity, project),
  );
  projectRead(
    'health-report',
    'The project with its live features and how many are stale or potentially stale',
    ProjectHealthReport,
    (project, identity) => readProjectHealthReport(ctx, identity, project),
  );
  projectRead(
    'insights',
    'Statistics, health, lead times and members of the project',
    ProjectInsights,
    (project, identity) => readProjectInsights(ctx, identity, project),
  );
  projectRead(
    'dora',
    'Lead time: days from creating each feature to SDKs reporting it live in production',
    ProjectDora,
    (project, identity) => readProjectDora(ctx, identity, project),
  );
  projectRead(
    'status',
    'Resources, activity by day, health, lifecycle stages and stale features of the project',
    ProjectStatus,
    (project) => readProjectStatus(ctx, project),
  );
  projectRead('flag-creators', 'The users who created the project’s live features', FlagCreators, (project) =>
    readFlagCreators(ctx, project),
  );

  app.get(
    '/api/admin/flag-creators',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: ['Users'],
        summary: 'A page of the users who created live features in the projects you see, by name',
        querystring: FlagCreatorsQuery,
        response: { 200: FlagCreatorsPage },
      },
    },
    async (request) => readFlagCreatorsAcross(ctx, request.visibleProjects, request.query),
  );

  app.get(
    '/api/admin/personal-dashboard',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: ['Users'],
        summary: 'Your projects and flags, the Admins and the owners of projects (a user only)',
        response: { 200: PersonalDashboard },
      },
    },
    async (request) => readPersonalDashboard(ctx, identityOf(request), request.visibleProjects),
  );

  app.get(
    '/api/admin/personal-dashboard/:projectId',
    {
      config: { permission: 'NONE' },
      schema: {
        tags: ['Users'],
        summary: 'One project as your dashboard shows it: latest events, owners, your roles, insights',
        params: ProjectParams,
        response: { 200: PersonalProject },
      },
    },
    async (request) => readPersonalProject(ctx, identityOf(request), request.params.projectId),
  );
}
