import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import { ProjectFeatureParams, StageSchema } from '../core/schemas.js';
import { readLifecycle, readStageCounts } from './service.js';

const CompletionBody = Type.Object(
  {
    status: Type.Union([Type.Literal('kept'), Type.Literal('discarded')], {
      description: "Whether the feature's code was kept or discarded",
    }),
    statusValue: Type.Optional(Type.String({ maxLength: 1000, description: 'What was kept, for example' })),
  },
  { additionalProperties: false },
);

const StageCounts = Type.Object({
  initial: Type.Integer(),
  preLive: Type.Integer(),
  live: Type.Integer(),
  completed: Type.Integer(),
  archived: Type.Integer(),
});

/** A feature's lifecycle: the stages it entered, and completing it by hand. */
export function lifecycleRoutes(app: App, ctx: AppContext): void {
  const tags = ['Features'];
  const LIFECYCLE = '/api/admin/projects/:projectId/features/:featureName/lifecycle';

  app.get(
    LIFECYCLE,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The lifecycle stages the feature has entered, oldest first (archived features too)',
        params: ProjectFeatureParams,
        response: { 200: Type.Array(StageSchema) },
      },
    },
    async (request) => readLifecycle(ctx.model, request.params.projectId, request.params.featureName),
  );

  app.post(
    `${LIFECYCLE}/complete`,
    {
      config: changeRoute('completeFeature'),
      schema: {
        tags,
        summary: 'Mark the feature completed: its code was kept or discarded',
        params: ProjectFeatureParams,
        body: CompletionBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      await applyChange(ctx, identityOf(request), {
        action: 'completeFeature',
        project: projectId,
        feature: featureName,
        payload: request.body,
      });
      return reply.send();
    },
  );

  app.post(
    `${LIFECYCLE}/uncomplete`,
    {
      config: changeRoute('uncompleteFeature'),
      schema: {
        tags,
        summary: 'Take the feature out of the completed stage',
        params: ProjectFeatureParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      await applyChange(ctx, identityOf(request), {
        action: 'uncompleteFeature',
        project: projectId,
        feature: featureName,
      });
      return reply.send();
    },
  );

  app.get(
    '/api/admin/lifecycle/count',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'How many features (archived ones included) stand at each lifecycle stage',
        response: { 200: StageCounts },
      },
    },
    async (request) => readStageCounts(ctx.model, request.visibleProjects),
  );
}
