import type { StrategyParameter } from '../../api/types';
import { Button } from '../../components/button';
import { CheckboxField, SelectField, TextField } from '../../components/fields';

export const PARAMETER_TYPES = [
  { value: 'string', label: 'Text' },
  { value: 'percentage', label: 'Percentage (0 to 100)' },
  { value: 'list', label: 'List (comma-separated)' },
  { value: 'number', label: 'Number' },
  { value: 'boolean', label: 'Yes or no' },
];

interface Props {
  parameters: StrategyParameter[];
  onChange(parameters: StrategyParameter[]): void;
  errorAt(path: string): string | undefined;
}

/** The parameters a custom strategy takes: name, type, description and whether each use must set it. */
export function ParameterDefinitionsEditor({ parameters, onChange, errorAt }: Props) {
  const change = (i: number, part: Partial<StrategyParameter>) =>
    onChange(parameters.map((p, j) => (j === i ? { ...p, ...part } : p)));
  return (
    <fieldset>
      <legend>Parameters</legend>
      <p class="muted">
        What a flag using this strategy sets, for the SDK's code to read. Values are sent to SDKs as text.
      </p>
      {parameters.map((p, i) => (
        <div class="row" key={i}>
          <TextField
            label={`Parameter ${i + 1} name`}
            required
            value={p.name}
            onValue={(name) => change(i, { name })}
            error={errorAt(`parameters.${i}.name`) ?? errorAt(`parameters.${i}`)}
          />
          <SelectField
            label={`Parameter ${i + 1} type`}
            value={p.type}
            choices={PARAMETER_TYPES}
            onValue={(type) => change(i, { type })}
            error={errorAt(`parameters.${i}.type`)}
          />
          <TextField
            label={`Parameter ${i + 1} description`}
            value={p.description ?? ''}
            onValue={(description) => change(i, { description })}
            error={errorAt(`parameters.${i}.description`)}
          />
          <CheckboxField
            label={`Parameter ${i + 1} required`}
            checked={p.required ?? false}
            onValue={(required) => change(i, { required })}
            error={errorAt(`parameters.${i}.required`)}
          />
          <Button
            variant="quiet"
            onClick={() => onChange(parameters.filter((_, j) => j !== i))}
            aria-label={`Remove parameter ${i + 1}`}
          >
            Remove
          </Button>
        </div>
      ))}
      <Button
        class="add-row"
        onClick={() =>
          onChange([...parameters, { name: '', type: 'string', description: '', required: false }])
        }
      >
        Add parameter
      </Button>
    </fieldset>
  );
}
