import { api, featurePath, seg } from '../../api/client';
import type { Payload, Variant } from '../../api/types';
import { Button } from '../../components/button';
import { SelectField, TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';

interface VariantDraft {
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

interface Props {
  project: string;
  feature: string;
  environment: string;
  variants: Variant[];
  onSaved(): void;
  onCancel(): void;
}

const PAYLOAD_CHOICES = [
  { value: '', label: 'No payload' },
  { value: 'string', label: 'String' },
  { value: 'json', label: 'JSON' },
  { value: 'csv', label: 'CSV' },
  { value: 'number', label: 'Number' },
];

function draftOf(v: Variant): VariantDraft {
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

function variantOf(d: VariantDraft): Variant {
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

/**
 * A flag's variants in one environment: `variable` ones share what the `fix` ones leave of 100%
 * (the server works the weights out and answers them).
 */
export function VariantsEditor({ project, feature, environment, variants, onSaved, onCancel }: Props) {
  const form = useForm<{ variants: VariantDraft[] }>({ variants: variants.map(draftOf) });
  const drafts = form.values.variants;
  const change = (i: number, part: Partial<VariantDraft>) =>
    form.set(
      'variants',
      drafts.map((d, j) => (j === i ? { ...d, ...part } : d)),
    );
  const errorOf = (i: number, field: string) =>
    form.errorAt(`variants.${i}.${field}`) ?? form.errorAt(`${i}.${field}`);
  const add = () =>
    form.set('variants', [
      ...drafts,
      {
        name: '',
        weightType: 'variable',
        percent: '',
        stickiness: 'default',
        payloadType: '',
        payloadValue: '',
      },
    ]);
  return (
    <Form
      label={`Variants in ${environment}`}
      error={form.error}
      onSubmit={form.onSubmit(async ({ variants: edited }) => {
        const body = edited.map(variantOf);
        await api.put(`${featurePath(project, feature)}/environments/${seg(environment)}/variants`, body);
        onSaved();
      })}
    >
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
            onClick={() =>
              form.set(
                'variants',
                drafts.filter((_, j) => j !== i),
              )
            }
            aria-label={`Remove variant ${d.name || i + 1}`}
          >
            Remove
          </Button>
        </fieldset>
      ))}
      <div class="actions">
        <Button onClick={add}>Add variant</Button>
        <Button type="submit" variant="primary" busy={form.submitting}>
          Save variants
        </Button>
        <Button variant="quiet" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
