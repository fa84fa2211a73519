import { Type } from '@sinclair/typebox';
import { ConstraintList, StoredConstraint } from '../constraints/schemas.js';
import { IntegerId, Nullable, Timestamp } from '../http/schemas.js';

export const SegmentIdParams = Type.Object({ id: IntegerId });

export const SegmentBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Unique' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  project: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Only strategies of this project may use it',
      }),
    ),
  ),
  constraints: ConstraintList,
});

export const SegmentNameBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });

export const SegmentSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  project: Nullable(Type.String()),
  constraints: Type.Array(StoredConstraint),
  createdBy: Nullable(Type.String()),
  createdAt: Timestamp,
});

export const SegmentList = Type.Object({ segments: Type.Array(SegmentSchema) });

export const SegmentStrategies = Type.Object({
  strategies: Type.Array(
    Type.Object({
      id: Type.String(),
      featureName: Type.String(),
      projectId: Type.String(),
      environment: Type.String(),
      strategyName: Type.String(),
    }),
  ),
  changeRequestStrategies: Type.Array(Type.Unknown(), {
    description: 'Always empty: no change requests here',
  }),
});

export const StrategyIdParams = Type.Object({ strategyId: Type.String({ minLength: 1 }) });

export const StrategySegmentsBody = Type.Object({
  projectId: Type.String({ minLength: 1, maxLength: 100, description: "The strategy's project" }),
  environmentId: Type.String({ minLength: 1, maxLength: 100, description: "The strategy's environment" }),
  strategyId: Type.String({ minLength: 1, maxLength: 100 }),
  segmentIds: Type.Array(IntegerId, { maxItems: 100, description: 'Every segment the strategy is to use' }),
});
