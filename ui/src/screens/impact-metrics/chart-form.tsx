import { Button } from '../../components/button';
import { type Choice, SelectField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';
import { ChartView, useChartQuery } from './chart-card';
import {
  type AggregationMode,
  type ChartConfig,
  type ChartDraft,
  type MetricInfo,
  modesOf,
  TIME_RANGES,
  type TimeRange,
  type YAxisMin,
} from './impact-api';
import { LabelFilters } from './label-filters';

const Y_AXES: Choice[] = [
  { value: 'auto', label: 'Fits the values' },
  { value: 'zero', label: 'Starts at zero' },
];

type Values = Required<ChartDraft>;

interface Props {
  metrics: MetricInfo[];
  /** The chart to change; null for a new one. */
  config: ChartConfig | null;
  /** Sends the chart to the server (a new one has no id). */
  save(body: ChartDraft & { id?: string }): Promise<unknown>;
  onSaved(): void;
  onCancel(): void;
}

function initialValues(metrics: MetricInfo[], config: ChartConfig | null): Values {
  if (config) return { ...config, title: config.title ?? '' };
  const first = metrics[0];
  return {
    metricName: first?.name ?? '',
    timeRange: 'hour',
    aggregationMode: modesOf(first?.type)[0]!.value as AggregationMode,
    labelSelectors: {},
    yAxisMin: 'auto',
    title: '',
  };
}

/** What a chart shows and how, with the chart it makes drawn as the choices change. */
export function ChartForm({ metrics, config, save, onSaved, onCancel }: Props) {
  const form = useForm<Values>(initialValues(metrics, config), {
    checks: { metricName: (name) => (name ? undefined : 'Choose the metric to draw.') },
  });
  const { values } = form;
  const metric = metrics.find((m) => m.name === values.metricName);
  const modes = modesOf(metric?.type);
  const name = metric?.displayName || values.metricName;
  const preview = useChartQuery(values.metricName ? values : null, 'edit', name);
  // A chart of a metric no SDK sends any more can still be changed: its metric stays a choice.
  const metricChoices = [
    ...metrics.map((m) => ({ value: m.name, label: `${m.displayName || m.name} (${m.type})` })),
    ...(metric || !values.metricName ? [] : [{ value: values.metricName, label: values.metricName }]),
  ];
  const chooseMetric = (metricName: string) => {
    const type = metrics.find((m) => m.name === metricName)?.type;
    form.update((v) => ({
      ...v,
      metricName,
      // Another metric has other labels, and its type may not allow the aggregation chosen.
      labelSelectors: {},
      aggregationMode: modesOf(type).some((m) => m.value === v.aggregationMode)
        ? v.aggregationMode
        : (modesOf(type)[0]!.value as AggregationMode),
    }));
  };
  return (
    <Form
      label={config ? 'Edit chart' : 'New chart'}
      class="form card impact-form"
      error={form.error}
      onSubmit={form.onSubmit(async (v) => {
        const title = v.title.trim();
        await save({
          ...(config ? { id: config.id } : {}),
          metricName: v.metricName,
          timeRange: v.timeRange,
          aggregationMode: v.aggregationMode,
          labelSelectors: v.labelSelectors,
          yAxisMin: v.yAxisMin,
          ...(title ? { title } : {}),
        });
        onSaved();
      })}
    >
      <div class="row">
        <SelectField
          label="Metric"
          hint={metric?.help}
          choices={metricChoices}
          value={values.metricName}
          onValue={chooseMetric}
          error={form.errorAt('metricName')}
        />
        <TextField label="Title" hint="Leave empty for the metric's name." {...form.field('title')} />
      </div>
      <div class="row">
        <SelectField
          label="Time range"
          choices={TIME_RANGES}
          value={values.timeRange}
          onValue={(v) => form.set('timeRange', v as TimeRange)}
          error={form.errorAt('timeRange')}
        />
        <SelectField
          label="Aggregation"
          choices={modes}
          value={values.aggregationMode}
          onValue={(v) => form.set('aggregationMode', v as AggregationMode)}
          error={form.errorAt('aggregationMode')}
        />
        <SelectField
          label="Y axis"
          choices={Y_AXES}
          value={values.yAxisMin}
          onValue={(v) => form.set('yAxisMin', v as YAxisMin)}
          error={form.errorAt('yAxisMin')}
        />
      </div>
      <fieldset class="plain">
        <legend>Filter by label</legend>
        <LabelFilters
          available={preview.result.data?.labels ?? {}}
          selected={values.labelSelectors}
          onChange={(selected) => form.set('labelSelectors', selected)}
        />
      </fieldset>
      <section class="impact-preview" aria-label="Preview">
        <h3>Preview</h3>
        {values.metricName && <ChartView query={preview} yAxisMin={values.yAxisMin} />}
      </section>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {config ? 'Save chart' : 'Add chart'}
        </Button>
        <Button variant="quiet" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
