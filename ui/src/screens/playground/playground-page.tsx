import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, api } from '../../api/client';
import type { ContextField, Environment, Project } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { CheckboxField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Loaded } from '../../components/status';
import { isoFromLocalInput } from '../../forms/dates';
import { type Form as FormState, useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { type AdvancedAnswer, fromAdvanced, fromPlain, type PlaygroundAnswer, type Results } from './answers';
import { PlaygroundResults } from './results';

/** The fields SDKs send at the top of a context; the others go in `properties`. */
const STANDARD_FIELDS = ['appName', 'environment', 'userId', 'sessionId', 'remoteAddress', 'currentTime'];

const FIELD_HINTS: Record<string, string> = {
  appName: 'Required: the name the application reports.',
  currentTime: 'Empty: now.',
};

interface Property {
  name: string;
  value: string;
}

interface Draft {
  environments: string[];
  allProjects: boolean;
  projects: string[];
  /** The context's fields by name (currentTime as a `datetime-local` value). */
  fields: Record<string, string>;
  properties: Property[];
}

interface Request {
  advanced: boolean;
  body: Record<string, unknown>;
}

// The last context tried stays for the session, so that a look at a flag does not lose it.
const STORAGE_KEY = 'flagpole.playground';

function savedDraft(): Partial<Draft> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Draft>;
  } catch {
    return {};
  }
}

/**
 * The request a draft makes: the plain playground for one environment and one context, the
 * advanced one when several environments are chosen or a field has several comma-separated values.
 */
function requestOf(draft: Draft): Request {
  const context: Record<string, unknown> = {};
  const properties: Record<string, string> = {};
  const problems = draft.properties.flatMap((p, i) =>
    !p.name.trim() && p.value.trim()
      ? [{ path: `properties.${i}.name`, message: 'Give the property a name.' }]
      : [],
  );
  if (problems.length > 0) throw new ApiError(400, 'ValidationError', 'A property has no name.', problems);
  for (const [name, text] of Object.entries(draft.fields)) {
    const value = name === 'currentTime' && text ? isoFromLocalInput(text) : text.trim();
    if (!value) continue;
    if (STANDARD_FIELDS.includes(name)) context[name] = value;
    else properties[name] = value;
  }
  for (const p of draft.properties) if (p.name.trim()) properties[p.name.trim()] = p.value.trim();
  if (Object.keys(properties).length > 0) context.properties = properties;
  const projects = draft.allProjects ? '*' : draft.projects;
  const values = [...Object.values(draft.fields), ...draft.properties.map((p) => p.value)];
  const advanced = draft.environments.length !== 1 || values.some((v) => v.includes(','));
  return advanced
    ? { advanced, body: { environments: draft.environments, projects, context } }
    : { advanced, body: { environment: draft.environments[0], projects, context } };
}

/** The server's messages about the environments (`environment`, `environments.1`), together. */
function environmentsError(form: FormState<Draft>): string | undefined {
  const messages = [
    form.errorAt('environment'),
    form.errorAt('environments'),
    ...form.values.environments.map((_, i) => form.errorAt(`environments.${i}`)),
  ].filter(Boolean);
  return messages.length > 0 ? messages.join(' ') : undefined;
}

function fieldError(form: FormState<Draft>, name: string): string | undefined {
  return form.errorAt(`context.${name}`) ?? form.errorAt(`context.properties.${name}`);
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

function PropertiesEditor({ form }: { form: FormState<Draft> }) {
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

interface FormProps {
  environments: Environment[];
  projects: Project[];
  contextFields: ContextField[];
  /** The results of the context tried; null while an attempt failed. */
  onResults(results: Results | null): void;
}

function PlaygroundForm({ environments, projects, contextFields, onResults }: FormProps) {
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
  const custom = contextFields
    .filter((f) => !STANDARD_FIELDS.includes(f.name))
    .sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
  const setField = (name: string, value: string) => form.set('fields', { ...values.fields, [name]: value });
  const toggle = (list: string[], item: string, on: boolean) =>
    on ? [...list, item] : list.filter((x) => x !== item);

  const run = async (draft: Draft) => {
    // Results of an earlier context beside the errors of this one would read as its answer.
    onResults(null);
    const { advanced, body } = requestOf(draft);
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(draft));
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
                f.legalValues.length > 0
                  ? `One of ${f.legalValues.map((l) => l.value).join(', ')}.`
                  : undefined
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
      <PropertiesEditor form={form} />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Try the context
        </Button>
      </div>
    </Form>
  );
}

/** Tries a context out: every flag of the chosen projects and environments, on or off, and why. */
export function PlaygroundPage() {
  const environments = useResource<{ environments: Environment[] }>('/api/admin/environments');
  const projects = useResource<{ projects: Project[] }>('/api/admin/projects');
  const contextFields = useResource<ContextField[]>('/api/admin/context');
  const [results, setResults] = useState<Results | null>(null);
  const header = (
    <PageHeader title="Playground">
      <p class="muted">
        Try a context out: each flag evaluated as an SDK would, with the reason — every strategy, constraint
        and segment.
      </p>
    </PageHeader>
  );
  return (
    <Loaded resources={[environments, projects, contextFields]} header={header}>
      {({ environments }, { projects }, contextFields) => (
        <>
          {header}
          <PlaygroundForm
            environments={[...environments].sort((a, b) => a.sortOrder - b.sortOrder)}
            projects={projects}
            contextFields={contextFields}
            onResults={setResults}
          />
          {results && <PlaygroundResults results={results} />}
        </>
      )}
    </Loaded>
  );
}
