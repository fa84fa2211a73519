import type { ComponentChildren } from 'preact';
import { api } from '../../api/client';
import type { ContextField, Environment, Project } from '../../api/types';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/fields';
import { Form } from '../../components/form';
import { type Form as FormState, useForm } from '../../forms/use-form';
import { type AdvancedAnswer, fromAdvanced, fromPlain, type PlaygroundAnswer, type Results } from './answers';
import { ContextFieldset } from './context-fieldset';
import { type Draft, requestOf, STANDARD_FIELDS, saveDraft, savedDraft } from './draft';
import { PropertiesEditor } from './properties-editor';

/** The server's messages about the environments (`environment`, `environments.1`), together. */
function environmentsError(form: FormState<Draft>): string | undefined {
  const messages = [
    form.errorAt('environment'),
    form.errorAt('environments'),
    ...form.values.environments.map((_, i) => form.errorAt(`environments.${i}`)),
  ].filter(Boolean);
  return messages.length > 0 ? messages.join(' ') : undefined;
}

function FieldSet({
  legend,
  error,
  children,
}: {
  legend: string;
  error?: string;
  children: ComponentChildren;
}) {
  return (
    <fieldset class={`choices${error ? ' field-invalid' : ''}`}>
      <legend>{legend}</legend>
      {children}
      {error && <p class="field-error">{error}</p>}
    </fieldset>
  );
}

interface FormProps {
  environments: Environment[];
  projects: Project[];
  contextFields: ContextField[];
  /** The results of the context tried; null while an attempt failed. */
  onResults(results: Results | null): void;
}

/** The environments, projects and context to try; answers the results. */
export function PlaygroundForm({ environments, projects, contextFields, onResults }: FormProps) {
  const known = new Set(environments.map((e) => e.name));
  const saved = savedDraft();
  const first = environments.find((e) => e.enabled) ?? environments[0];
  const savedEnvironments = (saved.environments ?? []).filter((e) => known.has(e));
  // A field deleted since would go on being sent without being shown.
  const shown = new Set([...STANDARD_FIELDS, ...contextFields.map((f) => f.name)]);
  const savedFields = Object.fromEntries(
    Object.entries(saved.fields ?? {}).filter(([name]) => shown.has(name)),
  );
  const form = useForm<Draft>({
    environments: savedEnvironments.length > 0 ? savedEnvironments : first ? [first.name] : [],
    allProjects: saved.allProjects ?? true,
    projects: saved.projects ?? [],
    fields: savedFields,
    properties: saved.properties ?? [],
  });
  const { values } = form;
  const toggle = (list: string[], item: string, on: boolean) =>
    on ? [...list, item] : list.filter((x) => x !== item);

  const run = async (draft: Draft) => {
    // Results of an earlier context beside the errors of this one would read as its answer.
    onResults(null);
    const { advanced, body } = requestOf(draft);
    saveDraft(draft);
    if (advanced) {
      const answer = await api.post<AdvancedAnswer>('/api/admin/playground/advanced', body);
      onResults(fromAdvanced(answer, [...new Set(draft.environments)]));
    } else {
      const answer = await api.post<PlaygroundAnswer>('/api/admin/playground', body);
      onResults(fromPlain(answer, draft.environments[0]!));
    }
  };

  return (
    <Form
      label="Context to try"
      class="form card playground-form"
      error={form.error}
      onSubmit={form.onSubmit(run)}
    >
      <div class="playground-scope">
        <FieldSet legend="Environments" error={environmentsError(form)}>
          {environments.map((e) => (
            <CheckboxField
              key={e.name}
              label={e.name}
              checked={values.environments.includes(e.name)}
              onValue={(on) => form.set('environments', toggle(values.environments, e.name, on))}
            />
          ))}
        </FieldSet>
        <FieldSet legend="Projects" error={form.errorAt('projects')}>
          <CheckboxField label="All projects" {...form.checkbox('allProjects')} />
          {!values.allProjects &&
            projects.map((p) => (
              <CheckboxField
                key={p.id}
                label={p.name}
                checked={values.projects.includes(p.id)}
                onValue={(on) => form.set('projects', toggle(values.projects, p.id, on))}
              />
            ))}
        </FieldSet>
      </div>
      <ContextFieldset form={form} contextFields={contextFields} />
      <PropertiesEditor form={form} />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Try the context
        </Button>
      </div>
    </Form>
  );
}
