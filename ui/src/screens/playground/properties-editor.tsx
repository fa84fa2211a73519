import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import type { Form } from '../../forms/use-form';
import { type Draft, fieldError, type Property } from './draft';

/** Properties of the context that no context field names: a name and a value each. */
export function PropertiesEditor({ form }: { form: Form<Draft> }) {
  const { properties } = form.values;
  const change = (index: number, part: Partial<Property>) =>
    form.set(
      'properties',
      properties.map((p, i) => (i === index ? { ...p, ...part } : p)),
    );
  return (
    <fieldset class="properties">
      <legend>Other properties</legend>
      {properties.map((p, i) => (
        <fieldset key={i} class="plain row">
          <legend class="visually-hidden">Property {i + 1}</legend>
          <TextField
            label="Name"
            value={p.name}
            onValue={(name) => change(i, { name })}
            error={form.errorAt(`properties.${i}.name`)}
          />
          <TextField
            label="Value"
            value={p.value}
            onValue={(value) => change(i, { value })}
            error={p.name.trim() ? fieldError(form, p.name.trim()) : undefined}
          />
          <Button
            variant="quiet"
            aria-label={`Remove property ${i + 1}`}
            onClick={() =>
              form.set(
                'properties',
                properties.filter((_, j) => j !== i),
              )
            }
          >
            Remove
          </Button>
        </fieldset>
      ))}
      <Button onClick={() => form.set('properties', [...properties, { name: '', value: '' }])}>
        Add property
      </Button>
    </fieldset>
  );
}
