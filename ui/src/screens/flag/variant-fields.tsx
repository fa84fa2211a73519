import type { Payload, Variant } from '../../api/types';
import { Button } from '../../components/button';
import { SelectField, TextAreaField, TextField } from '../../components/fields';

export interface VariantDraft {
  name: string;
  weightType: Variant['weightType'];
  /** Percent, as typed; used for `fix` variants. */
  percent: string;
  stickiness: string;
  payloadType: '' | Payload['type'];
  payloadValue: string;
  /** The variant as stored, for what this editor does not show; none for a new one. */
  stored?: Variant;
}

const PAYLOAD_CHOICES = [
  { value: '', label: 'No payload' },
  { value: 'string', label: 'String' },
  { value: 'json', label: 'JSON' },
  { value: 'csv', label: 'CSV' },
  { value: 'number', label: 'Number' },
];

export function draftOf(v: Variant): VariantDraft {
  return {
    name: v.name,
    weightType: v.weightType,
    percent: String(v.weight / 10),
    stickiness: v.stickiness || 'default',
    payloadType: v.payload?.type ?? '',
    payloadValue: v.payload?.value ?? '',
    stored: v,
  };
}

export function variantOf(d: VariantDraft): Variant {
  // What this editor does not show (overrides, a field a newer server adds) goes back as it came,
  // whatever is renamed; the payload is shown, so it is what the form says.
  const { payload: _shown, ...unshown } = d.stored ?? {};
  return {
    ...unshown,
    name: d.name.trim(),
    weightType: d.weightType,
    weight: d.weightType === 'fix' ? Math.round(Number(d.percent) * 10) : 0,
    stickiness: d.stickiness || 'default',
    ...(d.payloadType ? { payload: { type: d.payloadType, value: d.payloadValue } } : {}),
  };
}

export const emptyVariant = (): VariantDraft => ({
  name: '',
  weightType: 'variable',
  percent: '',
  stickiness: 'default',
  payloadType: '',
  payloadValue: '',
});

interface Props {
  drafts: VariantDraft[];
  onChange(drafts: VariantDraft[]): void;
  /** The server's message for a field of the i-th variant (`name`, `weight`, `payload.value`…). */
  errorOf(i: number, field: string): string | undefined;
}

/** The fields of a list of variants (a flag's in an environment, or a strategy's), each removable. */
export function VariantFields({ drafts, onChange, errorOf }: Props) {
  const change = (i: number, part: Partial<VariantDraft>) =>
    onChange(drafts.map((d, j) => (j === i ? { ...d, ...part } : d)));
  return (
    <>
      {drafts.map((d, i) => (
        <fieldset key={i} class="variant-row">
          <legend>Variant {i + 1}</legend>
          <div class="row">
            <TextField
              label="Name"
              required
              value={d.name}
              onValue={(name) => change(i, { name })}
              error={errorOf(i, 'name')}
            />
            <SelectField
              label="Weight"
              value={d.weightType}
              choices={[
                { value: 'variable', label: 'Shares the rest' },
                { value: 'fix', label: 'Fixed percentage' },
              ]}
              onValue={(weightType) => change(i, { weightType: weightType as Variant['weightType'] })}
              error={errorOf(i, 'weightType')}
            />
            {d.weightType === 'fix' && (
              <TextField
                label="Percent"
                type="number"
                min={0}
                max={100}
                step={0.1}
                value={d.percent}
                onValue={(percent) => change(i, { percent })}
                error={errorOf(i, 'weight')}
              />
            )}
            <TextField
              label="Stickiness"
              value={d.stickiness}
              onValue={(stickiness) => change(i, { stickiness })}
              error={errorOf(i, 'stickiness')}
            />
          </div>
          <div class="row">
            <SelectField
              label="Payload"
              value={d.payloadType}
              choices={PAYLOAD_CHOICES}
              onValue={(payloadType) =>
                change(i, { payloadType: payloadType as VariantDraft['payloadType'] })
              }
              error={errorOf(i, 'payload.type')}
            />
            {d.payloadType && (
              <TextAreaField
                label="Payload value"
                rows={2}
                value={d.payloadValue}
                onValue={(payloadValue) => change(i, { payloadValue })}
                error={errorOf(i, 'payload.value') ?? errorOf(i, 'payload')}
              />
            )}
          </div>
          <Button
            variant="quiet"
            onClick={() => onChange(drafts.filter((_, j) => j !== i))}
            aria-label={`Remove variant ${d.name || i + 1}`}
          >
            Remove
          </Button>
        </fieldset>
      ))}
    </>
  );
}
