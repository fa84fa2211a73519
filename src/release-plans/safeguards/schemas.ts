import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas.js';
import { AggregationMode, LabelSelectors, TimeRange } from '../../impact-metrics/schemas.js';

const Source = Type.Union([Type.Literal('internal'), Type.Literal('external')]);

const MetricQuery = {
  metricName: Type.String({ minLength: 1, maxLength: 200 }),
  timeRange: TimeRange,
  aggregationMode: AggregationMode,
  labelSelectors: LabelSelectors,
};

const TriggerCondition = Type.Object({
  operator: Type.Union([Type.Literal('>'), Type.Literal('<')]),
  threshold: Type.Number({ minimum: -1e300, maximum: 1e300 }),
});

/** Unleash's `createSafeguardSchema`: a metric query and the condition that trips it. */
export const CreateSafeguardBody = Type.Object({
  impactMetric: Type.Object({ ...MetricQuery, source: Type.Optional(Source) }),
  triggerCondition: TriggerCondition,
});

export const SafeguardSchema = Type.Object({
  id: Type.String(),
  action: Type.Union([
    Type.Object({ type: Type.Literal('pauseReleasePlanProgressions'), id: Type.String() }),
    Type.Object({
      type: Type.Literal('disableFeatureEnvironment'),
      featureName: Type.String(),
      environment: Type.String(),
      project: Type.String(),
    }),
  ]),
  triggerCondition: TriggerCondition,
  impactMetric: Type.Object({
    id: Type.String({ description: 'The chart the query is kept as (a chart of the flag, read-only)' }),
    ...MetricQuery,
    labelSelectors: Type.Record(Type.String(), Type.Array(Type.String())),
    source: Source,
  }),
  triggeredAt: Nullable(Type.String({ format: 'date-time', description: 'When it last acted' })),
});

const Id = Type.String({ minLength: 1, maxLength: 100 });
const FlagEnvironment = {
  projectId: Type.String({ minLength: 1 }),
  featureName: Type.String({ minLength: 1 }),
  environment: Type.String({ minLength: 1 }),
};
export const EnvironmentParams = Type.Object(FlagEnvironment);
export const PlanSafeguardParams = Type.Object({ ...FlagEnvironment, planId: Id, safeguardId: Id });
export const PlanOnlyParams = Type.Object({ ...FlagEnvironment, planId: Id });
export const EnvironmentSafeguardParams = Type.Object({ ...FlagEnvironment, safeguardId: Id });
