import { CheckboxField } from '../../components/fields';
import type { LabelSelectors } from './impact-api';

interface Props {
  /** The labels the metric's series carry, with their values, as the edit-mode query answered them. */
  available: Record<string, string[]>;
  selected: LabelSelectors;
  onChange(selected: LabelSelectors): void;
}

const ANY = '*';

/**
 * A set of checkboxes per label: the chart keeps to the checked values, one line each when there
 * are several; a label with none checked does not filter, and its series are added up.
 */
export function LabelFilters({ available, selected, onChange }: Props) {
  // A value checked before stays offered even when the latest answer no longer has it.
  const names = [...new Set([...Object.keys(available), ...Object.keys(selected)])]
    .filter((name) => !name.startsWith('__'))
    .sort();
  if (names.length === 0) return <p class="muted">The metric's series carry no labels to filter by.</p>;
  // The server refuses a label with no values: an unchecked label is left out instead.
  const change = (name: string, values: string[]) => {
    const next = { ...selected, [name]: values };
    if (values.length === 0) delete next[name];
    onChange(next);
  };
  const toggle = (name: string, value: string, on: boolean) => {
    const values = (selected[name] ?? []).filter((v) => v !== value);
    change(name, on ? [...values, value] : values);
  };
  return (
    <div class="impact-filters">
      {names.map((name) => {
        const split = selected[name]?.includes(ANY) ?? false;
        const values = [...new Set([...(available[name] ?? []), ...(selected[name] ?? [])])]
          .filter((v) => v !== ANY)
          .sort();
        return (
          <fieldset key={name} class="choices impact-filter">
            <legend>{name}</legend>
            <CheckboxField
              label="A line per value"
              checked={split}
              onValue={(on) => change(name, on ? [ANY] : [])}
            />
            {values.map((value) => (
              <CheckboxField
                key={value}
                label={value}
                checked={!split && (selected[name]?.includes(value) ?? false)}
                disabled={split}
                onValue={(on) => toggle(name, value, on)}
              />
            ))}
          </fieldset>
        );
      })}
    </div>
  );
}
