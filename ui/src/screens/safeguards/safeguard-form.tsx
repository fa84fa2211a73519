import type { AggregationMode, ImpactMetricInfo, SafeguardInput, TimeRange } from '../../api/releases';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { required } from '../../forms/checks';
import { useForm } from '../../forms/use-form';
import { LabelFilters } from './label-filters';
import { modesFor, TIME_RANGES } from './safeguard-words';

interface Draft {
  metricName: string;
  aggregationMode: string;
  timeRange: string;
  labelSelectors: Record<string, string[]>;
  operator: string;
  threshold: string;
}

interface Props {
  /** The safeguard there is, to change; null for a new one. */
  initial: SafeguardInput | null;
  /** Says what the safeguard does when it trips ("pauses the plan's progressions"). */
  action: string;
  onSave(input: SafeguardInput): Promise<unknown>;
  onCancel(): void;
}

const OPERATORS = [
  { value: '>', label: 'is more than' },
  { value: '<', label: 'is less than' },
];

const isNumber = (text: string) =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? undefined : 'A number.';

function draftOf(initial: SafeguardInput | null): Draft {
  return {
    metricName: initial?.impactMetric.metricName ?? '',
    aggregationMode: initial?.impactMetric.aggregationMode ?? '',
    timeRange: initial?.impactMetric.timeRange ?? 'hour',
    labelSelectors: initial?.impactMetric.labelSelectors ?? {},
    operator: initial?.triggerCondition.operator ?? '>',
    threshold: initial ? String(initial.triggerCondition.threshold) : '',
  };
}

/** A safeguard's metric, how it is reduced over which time, and the threshold that trips it. */
export function SafeguardForm({ initial, action, onSave, onCancel }: Props) {
  const metadata = useResource<{ metrics: ImpactMetricInfo[] }>('/api/admin/impact-metrics/metadata');
  const metrics = metadata.data?.metrics ?? [];
  const form = useForm<Draft>(draftOf(initial), { checks: { metricName: required, threshold: isNumber } });
  const { values } = form;
  const metric = metrics.find((m) => m.name === values.metricName);
  const modes = modesFor(metric?.type);
  const mode = modes.some((m) => m.value === values.aggregationMode)
    ? values.aggregationMode
    : modes[0]!.value;
  const bound = (key: 'metricName' | 'timeRange' | 'operator' | 'threshold', path: string) => ({
    ...form.field(key),
    error: form.errorAt(key) ?? form.errorAt(path),
  });
  const save = (draft: Draft) =>
    onSave({
      impactMetric: {
        metricName: draft.metricName.trim(),
        timeRange: draft.timeRange as TimeRange,
        aggregationMode: mode as AggregationMode,
        labelSelectors: draft.labelSelectors,
      },
      triggerCondition: { operator: draft.operator as '>' | '<', threshold: Number(draft.threshold) },
    });
  // Until a metric has been reported, its name is typed: the safeguard may be set up before the SDKs send it.
  const metricField = bound('metricName', 'impactMetric.metricName');
  return (
    <Form class="form safeguard-form" label="Safeguard" error={form.error} onSubmit={form.onSubmit(save)}>
      <p class="muted">When the condition holds, the safeguard {action}.</p>
      {metadata.data === undefined && metadata.loading ? (
        // Not a text field meanwhile: one typed into would be replaced once the list arrives.
        <SelectField
          label="Metric"
          value=""
          choices={[{ value: '', label: 'Loading the metrics…' }]}
          onValue={() => {}}
          disabled
        />
      ) : metrics.length > 0 ? (
        <SelectField
          label="Metric"
          {...metricField}
          // Another metric has other labels: the filters chosen for this one go.
          onValue={(metricName) => form.update((d) => ({ ...d, metricName, labelSelectors: {} }))}
          choices={[
            ...(metric || !values.metricName ? [] : [{ value: values.metricName, label: values.metricName }]),
            ...(values.metricName ? [] : [{ value: '', label: 'Choose a metric' }]),
            ...metrics.map((m) => ({ value: m.name, label: `${m.displayName || m.name} (${m.type})` })),
          ]}
          hint={metric?.help}
        />
      ) : (
        <TextField
          label="Metric"
          hint="The name of an impact metric your SDKs report, such as request_errors."
          required
          {...metricField}
        />
      )}
      <div class="row">
        <SelectField
          label="Aggregation"
          value={mode}
          choices={modes}
          onValue={(v) => form.set('aggregationMode', v)}
          error={form.errorAt('impactMetric.aggregationMode')}
        />
        <SelectField label="Over" choices={TIME_RANGES} {...bound('timeRange', 'impactMetric.timeRange')} />
      </div>
      <LabelFilters
        key={metric ? values.metricName : ''}
        metricName={metric ? values.metricName : ''}
        selectors={values.labelSelectors}
        onChange={(labelSelectors) => form.set('labelSelectors', labelSelectors)}
        error={form.errorAt('impactMetric.labelSelectors')}
      />
      <div class="row">
        <SelectField
          label="Trips when it"
          choices={OPERATORS}
          {...bound('operator', 'triggerCondition.operator')}
        />
        <TextField
          label="Threshold"
          type="number"
          step="any"
          required
          {...bound('threshold', 'triggerCondition.threshold')}
        />
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Save safeguard
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </Form>
  );
}
