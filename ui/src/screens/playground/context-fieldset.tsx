import type { ContextField } from '../../api/types';
import { TextField } from '../../components/fields';
import type { Form } from '../../forms/use-form';
import { type Draft, fieldError, STANDARD_FIELDS } from './draft';

const FIELD_HINTS: Record<string, string> = {
  appName: 'Required: the name the application reports.',
  currentTime: 'Empty: now.',
};

/** The fields of the context: those SDKs send at the top, then the custom ones, with their legal values. */
export function ContextFieldset({
  form,
  contextFields,
}: {
  form: Form<Draft>;
  contextFields: ContextField[];
}) {
  const { values } = form;
  const custom = contextFields
    .filter((f) => !STANDARD_FIELDS.includes(f.name))
    .sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
  const setField = (name: string, value: string) => form.set('fields', { ...values.fields, [name]: value });
  return (
    <fieldset>
      <legend>Context</legend>
      <p class="field-hint">Several values separated by commas are each tried, in every combination.</p>
      <div class="context-grid">
        {STANDARD_FIELDS.map((name) =>
          name === 'currentTime' ? (
            <TextField
              key={name}
              type="datetime-local"
              label={name}
              hint={FIELD_HINTS[name]}
              value={values.fields[name] ?? ''}
              onValue={(v) => setField(name, v)}
              error={fieldError(form, name)}
            />
          ) : (
            <TextField
              key={name}
              label={name}
              required={name === 'appName'}
              hint={FIELD_HINTS[name]}
              value={values.fields[name] ?? ''}
              onValue={(v) => setField(name, v)}
              error={fieldError(form, name)}
            />
          ),
        )}
        {custom.map((f) => (
          <TextField
            key={f.name}
            label={f.name}
            list={f.legalValues.length > 0 ? `legal-${f.name}` : undefined}
            hint={
              f.legalValues.length > 0 ? `One of ${f.legalValues.map((l) => l.value).join(', ')}.` : undefined
            }
            value={values.fields[f.name] ?? ''}
            onValue={(v) => setField(f.name, v)}
            error={fieldError(form, f.name)}
          />
        ))}
      </div>
      {custom
        .filter((f) => f.legalValues.length > 0)
        .map((f) => (
          <datalist key={f.name} id={`legal-${f.name}`}>
            {f.legalValues.map((l) => (
              <option key={l.value} value={l.value} />
            ))}
          </datalist>
        ))}
      {form.errorAt('context') && <p class="field-error">{form.errorAt('context')}</p>}
    </fieldset>
  );
}
