import type { LegalValue } from '../../api/types';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';

interface Props {
  values: LegalValue[];
  onChange(values: LegalValue[]): void;
  errorAt(path: string): string | undefined;
}

/** The only values constraints on a field may use, each with an optional description. */
export function LegalValuesEditor({ values, onChange, errorAt }: Props) {
  const change = (i: number, part: Partial<LegalValue>) =>
    onChange(values.map((v, j) => (j === i ? { ...v, ...part } : v)));
  return (
    <fieldset>
      <legend>Legal values</legend>
      <p class="muted">Leave empty to allow any value.</p>
      {values.map((v, i) => (
        <div class="row" key={i}>
          <TextField
            label={`Value ${i + 1}`}
            value={v.value}
            onValue={(value) => change(i, { value })}
            error={errorAt(`legalValues.${i}.value`) ?? errorAt(`legalValues.${i}`)}
          />
          <TextField
            label={`Description of value ${i + 1}`}
            value={v.description ?? ''}
            onValue={(description) => change(i, { description })}
            error={errorAt(`legalValues.${i}.description`)}
          />
          <Button
            variant="quiet"
            onClick={() => onChange(values.filter((_, j) => j !== i))}
            aria-label={`Remove value ${i + 1}`}
          >
            Remove
          </Button>
        </div>
      ))}
      <Button class="add-row" onClick={() => onChange([...values, { value: '' }])}>
        Add legal value
      </Button>
    </fieldset>
  );
}
