import { CheckboxField, SelectField, TextField } from '../../components/fields';
import type { ResultFilter } from './result-filter';

interface Props {
  filter: ResultFilter;
  onFilter(filter: ResultFilter): void;
  /** Offers "differing between environments" only when several were tried. */
  severalEnvironments: boolean;
}

/** Which results to show: by name, by outcome, only those that differ between environments. */
export function ResultFilters({ filter, onFilter, severalEnvironments }: Props) {
  const set = <K extends keyof ResultFilter>(key: K, value: ResultFilter[K]) =>
    onFilter({ ...filter, [key]: value });
  return (
    <search class="filters" aria-label="Filter the results">
      <TextField type="search" label="Find a flag" value={filter.search} onValue={(v) => set('search', v)} />
      <SelectField
        label="Result"
        value={filter.outcome}
        choices={[
          { value: '', label: 'On or off' },
          { value: 'on', label: 'Only on' },
          { value: 'off', label: 'Only off' },
          { value: 'unknown', label: 'Only unknown' },
        ]}
        onValue={(v) => set('outcome', v as ResultFilter['outcome'])}
      />
      {severalEnvironments && (
        <CheckboxField
          label="Only flags that differ between environments"
          checked={filter.differing}
          onValue={(v) => set('differing', v)}
        />
      )}
    </search>
  );
}
