import { api } from '../../api/client';
import { Button } from '../../components/button';
import { CheckboxField, TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';
import { Link, navigate } from '../../router';
import { type Integration, namesFromText, type Provider } from './integration-types';

interface Props {
  provider: Provider;
  /** The stored integration when editing. */
  stored?: Integration;
}

interface Draft {
  description: string;
  enabled: boolean;
  parameters: Record<string, string>;
  events: string[];
  projects: string;
  environments: string;
}

/** An integration's parameters (as its provider defines them), the events it sends and where from. */
export function IntegrationForm({ provider, stored }: Props) {
  const form = useForm<Draft>({
    description: stored?.description ?? '',
    enabled: stored?.enabled ?? true,
    parameters: stored?.parameters ?? {},
    events: stored?.events ?? [],
    projects: (stored?.projects ?? []).join(', '),
    environments: (stored?.environments ?? []).join(', '),
  });
  const { values } = form;
  const setParameter = (name: string, value: string) =>
    form.set('parameters', { ...values.parameters, [name]: value });
  const toggleEvent = (event: string, on: boolean) =>
    form.set('events', on ? [...values.events, event] : values.events.filter((e) => e !== event));
  const save = async (draft: Draft) => {
    const body = {
      // A PUT replaces the whole integration: what the form does not show goes back as it came.
      ...stored,
      provider: provider.name,
      description: draft.description || null,
      enabled: draft.enabled,
      parameters: draft.parameters,
      events: draft.events,
      projects: namesFromText(draft.projects),
      environments: namesFromText(draft.environments),
    };
    if (stored) await api.put(`/api/admin/addons/${stored.id}`, body);
    else await api.post('/api/admin/addons', body);
    navigate('/admin/integrations');
  };
  return (
    <Form label={`${provider.displayName} integration`} error={form.error} onSubmit={form.onSubmit(save)}>
      <TextField label="Description" {...form.field('description')} />
      {provider.parameters.map((p) => {
        const Field = p.type === 'textfield' ? TextAreaField : TextField;
        return (
          <Field
            key={p.name}
            label={p.displayName}
            hint={p.sensitive && stored ? `${p.description} Kept as it is unless changed.` : p.description}
            placeholder={p.placeholder}
            required={p.required}
            value={values.parameters[p.name] ?? ''}
            onValue={(v) => setParameter(p.name, v)}
            error={form.errorAt(`parameters.${p.name}`)}
          />
        );
      })}
      <fieldset>
        <legend>Events to send</legend>
        <div class="event-choices">
          {provider.events.map((event) => (
            <CheckboxField
              key={event}
              label={event}
              checked={values.events.includes(event)}
              onValue={(on) => toggleEvent(event, on)}
            />
          ))}
        </div>
        {form.errorAt('events') && <p class="field-error">{form.errorAt('events')}</p>}
      </fieldset>
      <TextField
        label="Only from projects"
        hint="Project ids, separated by commas; empty for every project."
        {...form.field('projects')}
      />
      <TextField
        label="Only from environments"
        hint="Environment names, separated by commas; empty for every environment."
        {...form.field('environments')}
      />
      <CheckboxField label="Enabled" {...form.checkbox('enabled')} />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {stored ? 'Save integration' : 'Create integration'}
        </Button>
        <Link href="/admin/integrations" class="button button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
