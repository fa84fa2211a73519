import type { AppContext } from '../app-context.js';
import { applyChange } from '../changes/applier.js';
import { changeRoute } from '../changes/route-config.js';
import { readStrategySegments } from '../features/strategies/segments.js';
import { readSegmentStrategies } from '../features/usage/service.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  SegmentBody,
  SegmentIdParams,
  SegmentList,
  SegmentNameBody,
  SegmentSchema,
  SegmentStrategies,
  StrategyIdParams,
  StrategySegmentsBody,
} from './schemas.js';
import { describeSegment, getVisibleSegment, readSegments, validateSegmentName } from './service.js';

export function segmentRoutes(app: App, ctx: AppContext): void {
  const tags = ['Segments'];

  app.get(
    '/api/admin/segments',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'Every segment', response: { 200: SegmentList } },
    },
    async (request) => readSegments(ctx.db, request.visibleProjects),
  );

  app.post(
    '/api/admin/segments',
    {
      config: changeRoute('createSegment'),
      schema: {
        tags,
        summary: 'Create a segment: a named set of constraints strategies can share',
        body: SegmentBody,
        response: { 201: SegmentSchema },
      },
    },
    async (request, reply) => {
      const segment = await applyChange(ctx, identityOf(request), {
        action: 'createSegment',
        payload: request.body,
      });
      return reply.code(201).header('location', `segments/${segment.id}`).send(segment);
    },
  );

  app.post(
    '/api/admin/segments/validate',
    {
      config: { permission: ['CREATE_SEGMENT', 'UPDATE_SEGMENT'] },
      schema: {
        tags,
        summary: 'Check that a segment name is free: 204, or 409 when taken',
        body: SegmentNameBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await validateSegmentName(ctx.db, request.body.name);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/admin/segments/strategies/:strategyId',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The segments a strategy uses (none for an unknown strategy id)',
        params: StrategyIdParams,
        response: { 200: SegmentList },
      },
    },
    async (request) => readStrategySegments(ctx.model, request.params.strategyId, request.visibleProjects),
  );

  app.post(
    '/api/admin/segments/strategies',
    {
      // Checked against the project and environment the body names: UPDATE_FEATURE_STRATEGY.
      config: changeRoute('setStrategySegments'),
      schema: {
        tags,
        summary:
          'Set the segments of a strategy to exactly those listed (needs UPDATE_FEATURE_STRATEGY in its project and environment)',
        body: StrategySegmentsBody,
        response: { 201: StrategySegmentsBody },
      },
    },
    async (request, reply) => {
      const result = await applyChange(ctx, identityOf(request), {
        action: 'setStrategySegments',
        payload: request.body,
      });
      return reply.code(201).header('location', `strategies/${result.strategyId}`).send(result);
    },
  );

  app.get(
    '/api/admin/segments/:id',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'One segment', params: SegmentIdParams, response: { 200: SegmentSchema } },
    },
    async (request) =>
      describeSegment(await getVisibleSegment(ctx.db, request.params.id, request.visibleProjects)),
  );

  app.put(
    '/api/admin/segments/:id',
    {
      config: changeRoute('updateSegment'),
      schema: {
        tags,
        summary: "Replace a segment's name, description, project and constraints",
        params: SegmentIdParams,
        body: SegmentBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'updateSegment',
        id: request.params.id,
        payload: request.body,
      });
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/admin/segments/:id',
    {
      config: changeRoute('deleteSegment'),
      schema: {
        tags,
        summary: 'Delete a segment no strategy uses',
        params: SegmentIdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await applyChange(ctx, identityOf(request), {
        action: 'deleteSegment',
        id: request.params.id,
      });
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/admin/segments/:id/strategies',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'The strategies that use a segment',
        params: SegmentIdParams,
        response: { 200: SegmentStrategies },
      },
    },
    async (request) => readSegmentStrategies(ctx.db, request.params.id, request.visibleProjects),
  );
}
