import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent, Nullable } from '../../http/schemas.js';
import { ProjectFeatureParams } from '../core/schemas.js';

const LinkBody = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 2000,
    description: 'An http(s) address; one without a scheme is taken as https',
  }),
  title: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
});

const LinkParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  featureName: Type.String({ minLength: 1 }),
  linkId: Type.String({ minLength: 1 }),
});

/** Links from a feature to what documents it (tickets, dashboards); shown in the feature's answer. */
export function linkRoutes(app: App, ctx: AppContext): void {
  const tags = ['Features'];
  const LINK = '/api/admin/projects/:projectId/features/:featureName/link';

  app.post(
    LINK,
    {
      config: changeRoute('addLink'),
      schema: {
        tags,
        summary: 'Add a link to the feature (at most 10)',
        params: ProjectFeatureParams,
        body: LinkBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      await applyChange(ctx, identityOf(request), {
        action: 'addLink',
        project: projectId,
        feature: featureName,
        payload: request.body,
      });
      return reply.code(204).send();
    },
  );

  app.put(
    `${LINK}/:linkId`,
    {
      config: changeRoute('updateLink'),
      schema: {
        tags,
        summary: "Change a link's address, and its title when sent",
        params: LinkParams,
        body: LinkBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName, linkId } = request.params;
      await applyChange(ctx, identityOf(request), {
        action: 'updateLink',
        project: projectId,
        feature: featureName,
        id: linkId,
        payload: request.body,
      });
      return reply.code(204).send();
    },
  );

  app.delete(
    `${LINK}/:linkId`,
    {
      config: changeRoute('deleteLink'),
      schema: { tags, summary: 'Remove a link', params: LinkParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { projectId, featureName, linkId } = request.params;
      await applyChange(ctx, identityOf(request), {
        action: 'deleteLink',
        project: projectId,
        feature: featureName,
        id: linkId,
      });
      return reply.code(204).send();
    },
  );
}
