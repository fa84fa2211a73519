import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '../http/schemas.js';

// What one report may carry. A report's metrics are summed in memory before they are written, so
// these bound the work of one request; what bounds storage is the number of series a token may
// make (see ./limits.ts).
const MAX_METRICS = 25;
const MAX_SAMPLES = 50;
const MAX_LABELS = 10;
const MAX_BUCKETS = 50;

const Finite = Type.Number({ minimum: -1e300, maximum: 1e300 });
const NonNegative = Type.Number({ minimum: 0, maximum: 1e300 });

const Labels = Type.Record(
  Type.String({ minLength: 1, maxLength: 64 }),
  Type.Union([Type.String({ maxLength: 100 }), Finite]),
  { maxProperties: MAX_LABELS, description: 'Label values are strings or numbers' },
);

const NumericSample = Type.Object({ labels: Type.Optional(Labels), value: Finite });

const HistogramSample = Type.Object({
  labels: Type.Optional(Labels),
  count: NonNegative,
  sum: Finite,
  buckets: Type.Array(Type.Object({ le: Type.Union([Finite, Type.Literal('+Inf')]), count: NonNegative }), {
    maxItems: MAX_BUCKETS,
  }),
});

const common = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  help: Type.String({ maxLength: 1000 }),
};

/** One metric of a report: a counter's increase since the last report, a gauge's value, a histogram's observations. */
export const ImpactMetric = Type.Union([
  Type.Object({
    ...common,
    type: Type.Union([Type.Literal('counter'), Type.Literal('gauge')]),
    samples: Type.Array(NumericSample, { maxItems: MAX_SAMPLES }),
  }),
  Type.Object({
    ...common,
    type: Type.Literal('histogram'),
    samples: Type.Array(HistogramSample, { maxItems: MAX_SAMPLES }),
  }),
]);
export type ImpactMetricReport = Static<typeof ImpactMetric>;

export const ImpactMetricsField = Type.Optional(
  Type.Array(ImpactMetric, {
    maxItems: MAX_METRICS,
    description: "Metrics of the application's own (impact metrics), as Unleash's SDKs send them",
  }),
);

export const TimeRange = Type.Union([
  Type.Literal('hour'),
  Type.Literal('day'),
  Type.Literal('week'),
  Type.Literal('month'),
]);
export const AggregationMode = Type.Union([
  Type.Literal('rps'),
  Type.Literal('count'),
  Type.Literal('avg'),
  Type.Literal('sum'),
  Type.Literal('p50'),
  Type.Literal('p95'),
  Type.Literal('p99'),
]);
const Source = Type.Union([Type.Literal('internal'), Type.Literal('external')]);

export const LabelSelectors = Type.Record(
  Type.String({ minLength: 1, maxLength: 100 }),
  Type.Array(Type.String({ maxLength: 200 }), { minItems: 1, maxItems: 50 }),
  {
    maxProperties: MAX_LABELS,
    description: 'Per label, the values a series may have; "*": any, one series per value',
  },
);
export type Selectors = Static<typeof LabelSelectors>;

const MetricName = Type.String({ minLength: 1, maxLength: 200 });

export const SeriesQuery = Type.Object({
  metricName: MetricName,
  range: Type.Optional(
    Type.Union([...TimeRange.anyOf, Type.Literal('threeMonths'), Type.Literal('sixMonths')], {
      description: 'How far back; hour when absent',
    }),
  ),
  aggregationMode: Type.Optional(AggregationMode),
  source: Type.Optional(Source),
  mode: Type.Optional(Type.Union([Type.Literal('edit'), Type.Literal('display')])),
  labels: Type.Optional(Type.String({ maxLength: 10_000, description: 'JSON: {"label": ["value", …]}' })),
});

export const SeriesAnswer = Type.Object({
  start: Type.String({ description: 'Epoch seconds' }),
  end: Type.String({ description: 'Epoch seconds' }),
  step: Type.String(),
  series: Type.Array(
    Type.Object({
      metric: Type.Record(Type.String(), Type.String()),
      data: Type.Array(Type.Tuple([Type.Number(), Type.String()])),
    }),
  ),
  labels: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
});

const MetricType = Type.Union([Type.Literal('counter'), Type.Literal('gauge'), Type.Literal('histogram')]);

export const Metadata = Type.Object({
  metrics: Type.Array(
    Type.Object({
      name: Type.String(),
      help: Type.String(),
      displayName: Type.String(),
      type: MetricType,
      source: Source,
    }),
  ),
});

export const RegisterBody = Type.Object({
  name: Type.String({ pattern: '^[a-zA-Z_:][a-zA-Z0-9_:]*$', maxLength: 200 }),
  type: MetricType,
  help: Type.Optional(Type.String({ maxLength: 1000 })),
});

export const ConfigBody = Type.Object({
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  metricName: MetricName,
  timeRange: TimeRange,
  aggregationMode: AggregationMode,
  labelSelectors: LabelSelectors,
  yAxisMin: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('zero')])),
  title: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  source: Type.Optional(Source),
});
export type ConfigInput = Static<typeof ConfigBody>;

export const ConfigSchema = Type.Object({
  id: Type.String(),
  metricName: Type.String(),
  displayName: Type.String(),
  timeRange: TimeRange,
  aggregationMode: AggregationMode,
  labelSelectors: Type.Record(Type.String(), Type.Array(Type.String())),
  yAxisMin: Type.Union([Type.Literal('auto'), Type.Literal('zero')]),
  title: Type.Optional(Type.String()),
  source: Source,
  mode: Type.Union([Type.Literal('read'), Type.Literal('write')], {
    description: 'read: a safeguard uses it, so it is changed through the safeguard',
  }),
  step: Type.String(),
  feature: Type.Optional(Type.String({ description: "The flag whose chart it is; absent: the instance's" })),
});

export const ConfigList = Type.Object({ configs: Type.Array(ConfigSchema) });

export const ConfigParams = Type.Object({ id: Type.String({ minLength: 1 }) });
export const FlagConfigParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  featureName: Type.String({ minLength: 1 }),
});
export const FlagConfigItemParams = Type.Object({
  ...FlagConfigParams.properties,
  id: Type.String({ minLength: 1 }),
});
