import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import { applyChange } from '../../changes/applier.js';
import { changeRoute } from '../../changes/route-config.js';
import { type App, identityOf } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import { ProjectParams } from '../../projects/schemas.js';
import {
  ArchiveImpact,
  BatchFeaturesBody,
  ChildParams,
  DependencyBody,
  DependencyParams,
  ParentParams,
} from '../core/schemas.js';
import {
  readArchiveImpact,
  readParentOptions,
  readParentVariants,
  readProjectHasDependencies,
} from './service.js';

/** Feature dependencies (a child on only while its parent's condition holds), and what archiving would break. */
export function dependencyRoutes(app: App, ctx: AppContext): void {
  const tags = ['Dependencies'];
  const child = '/api/admin/projects/:projectId/features/:child';

  app.post(
    `${child}/dependencies`,
    {
      config: changeRoute('addDependency'),
      schema: {
        tags,
        summary:
          'Give the feature its parent (replacing the one it had): a feature of the same project that has no parent itself',
        params: ChildParams,
        body: DependencyBody,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, child: name } = request.params;
      await applyChange(ctx, identityOf(request), {
        action: 'addDependency',
        project: projectId,
        feature: name,
        payload: request.body,
      });
      return reply.send();
    },
  );

  app.delete(
    `${child}/dependencies/:parent`,
    {
      config: changeRoute('deleteDependency'),
      schema: {
        tags,
        summary: "Remove the feature's dependency on that parent",
        params: DependencyParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, child: name, parent } = request.params;
      await applyChange(ctx, identityOf(request), {
        action: 'deleteDependency',
        project: projectId,
        feature: name,
        parent,
      });
      return reply.send();
    },
  );

  app.delete(
    `${child}/dependencies`,
    {
      config: changeRoute('deleteDependencies'),
      schema: {
        tags,
        summary: 'Remove every dependency of the feature',
        params: ChildParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'deleteDependencies',
        project: request.params.projectId,
        feature: request.params.child,
      });
      return reply.send();
    },
  );

  app.get(
    `${child}/parents`,
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The features the feature may depend on: those of its project without a parent, but itself',
        params: ChildParams,
        response: { 200: Type.Array(Type.String()) },
      },
    },
    async (request) => readParentOptions(ctx.model, request.params.projectId, request.params.child),
  );

  app.get(
    '/api/admin/projects/:projectId/features/:parent/parent-variants',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary:
          "The names of the feature's variants (of every environment and strategy), for a child to ask for",
        params: ParentParams,
        response: { 200: Type.Array(Type.String()) },
      },
    },
    async (request) => readParentVariants(ctx.model, request.params.projectId, request.params.parent),
  );

  app.get(
    '/api/admin/projects/:projectId/dependencies',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'Whether any feature of the project depends on another',
        params: ProjectParams,
        response: { 200: Type.Boolean() },
      },
    },
    async (request) => readProjectHasDependencies(ctx.model, request.params.projectId),
  );

  app.post(
    '/api/admin/projects/:projectId/archive/validate',
    {
      config: { permission: 'DELETE_FEATURE' },
      schema: {
        tags: ['Archive'],
        summary:
          'What archiving these features would break: parents whose children stay, dependencies removed',
        params: ProjectParams,
        body: BatchFeaturesBody,
        response: { 200: ArchiveImpact },
      },
    },
    async (request) => readArchiveImpact(ctx.model, request.params.projectId, request.body.features),
  );
}
