import { useState } from 'preact/hooks';
import { useResource } from '../../api/use-resource';
import { CheckboxField, TextField } from '../../components/fields';
import { formatLabels, parseLabels } from './safeguard-words';

interface Props {
  metricName: string;
  selectors: Record<string, string[]>;
  onChange(selectors: Record<string, string[]>): void;
  error?: string;
}

const labelsPath = (metricName: string) =>
  `/api/admin/impact-metrics/?${new URLSearchParams({ metricName, range: 'hour', aggregationMode: 'count', mode: 'edit' })}`;

/** Typed by hand: before a metric has been reported, nobody knows its labels. */
function TypedLabels({ selectors, onChange, error }: Omit<Props, 'metricName'>) {
  // The text as typed: a pair half written ("region=") is not a selector yet, and must not vanish.
  const [text, setText] = useState(() => formatLabels(selectors));
  return (
    <TextField
      label="Label filters (optional)"
      hint="Only the samples with these labels count: label=value, separated by commas."
      value={text}
      onValue={(typed) => {
        setText(typed);
        onChange(parseLabels(typed));
      }}
      error={error}
    />
  );
}

/**
 * Which samples of the metric count: for each of its labels, the values chosen (none: any). The
 * labels and their values are those the metric was reported with.
 */
export function LabelFilters({ metricName, selectors, onChange, error }: Props) {
  const known = useResource<{ labels?: Record<string, string[]> }>(
    metricName ? labelsPath(metricName) : null,
  );
  const labels = Object.entries(known.data?.labels ?? {}).filter(([, values]) => values.length > 0);
  if (known.loading) return null;
  if (labels.length === 0) return <TypedLabels selectors={selectors} onChange={onChange} error={error} />;
  const toggle = (label: string, value: string, on: boolean) => {
    const values = (selectors[label] ?? []).filter((v) => v !== value);
    const { [label]: _dropped, ...rest } = selectors;
    const chosen = on ? [...values, value] : values;
    onChange(chosen.length > 0 ? { ...rest, [label]: chosen } : rest);
  };
  return (
    <fieldset class="label-filters">
      <legend>Label filters</legend>
      <p class="muted">
        Only the samples with a chosen value count; a label with none chosen filters nothing.
      </p>
      {labels.map(([label, values]) => (
        <fieldset key={label} class="plain label-filter">
          <legend>{label}</legend>
          {values.map((value) => (
            <CheckboxField
              key={value}
              label={value}
              checked={(selectors[label] ?? []).includes(value)}
              onValue={(on) => toggle(label, value, on)}
            />
          ))}
        </fieldset>
      ))}
      {error && <p class="field-error">{error}</p>}
    </fieldset>
  );
}
