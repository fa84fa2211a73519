import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import type { Environment, Project } from '../../api/types';
import { Button } from '../../components/button';
import { SelectField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';
import { downloadJson, readJson } from './download';
import { JsonSource } from './json-source';

interface Finding {
  message: string;
  affectedItems: string[];
}

interface Validation {
  errors: Finding[];
  warnings: Finding[];
  permissions: Finding[];
}

interface Props {
  projects: Project[];
  environments: Environment[];
}

function Findings({ title, findings }: { title: string; findings: Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <>
      <p class="label">{title}</p>
      <ul>
        {findings.map((f) => (
          <li key={f.message}>
            {f.message}{' '}
            {f.affectedItems.length > 0 && <span class="muted">({f.affectedItems.join(', ')})</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

function ExportForm({ projects, environments }: Props) {
  const form = useForm({ project: projects[0]?.id ?? 'default', environment: environments[0]?.name ?? '' });
  return (
    <Form
      label="Export flags"
      error={form.error}
      onSubmit={form.onSubmit(async ({ project, environment }) => {
        const data = await api.post('/api/admin/features-batch/export', { project, environment });
        downloadJson(`flagpole-${project}-${environment}.json`, data);
      })}
    >
      <h3>Export</h3>
      <div class="row">
        <SelectField
          label="Project"
          {...form.field('project')}
          choices={projects.map((p) => ({ value: p.id, label: p.name }))}
        />
        <SelectField
          label="Environment"
          {...form.field('environment')}
          choices={environments.map((e) => ({ value: e.name, label: e.name }))}
        />
      </div>
      <div class="actions">
        <Button type="submit" busy={form.submitting}>
          Download the flags
        </Button>
      </div>
    </Form>
  );
}

function ImportForm({ projects, environments }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [validation, setValidation] = useState<Validation>();
  const [done, setDone] = useState(false);
  const form = useForm({
    project: projects[0]?.id ?? 'default',
    environment: environments[0]?.name ?? '',
    text: '',
  });
  const request = async () => ({
    project: form.values.project,
    environment: form.values.environment,
    data: await readJson(file, form.values.text),
  });
  const importable = validation && validation.errors.length === 0 && validation.permissions.length === 0;
  return (
    <Form
      label="Import flags"
      error={form.error}
      onSubmit={form.onSubmit(async () => {
        setDone(false);
        if (!importable) {
          setValidation(await api.post<Validation>('/api/admin/features-batch/validate', await request()));
          return;
        }
        await api.post('/api/admin/features-batch/import', await request());
        setValidation(undefined);
        setDone(true);
      })}
    >
      <h3>Import</h3>
      <div class="row">
        <SelectField
          label="Into the project"
          value={form.values.project}
          choices={projects.map((p) => ({ value: p.id, label: p.name }))}
          onValue={(v) => {
            setValidation(undefined);
            form.set('project', v);
          }}
          error={form.errorAt('project')}
        />
        <SelectField
          label="Into the environment"
          value={form.values.environment}
          choices={environments.map((e) => ({ value: e.name, label: e.name }))}
          onValue={(v) => {
            setValidation(undefined);
            form.set('environment', v);
          }}
          error={form.errorAt('environment')}
        />
      </div>
      <JsonSource
        text={form.values.text}
        onText={(v) => {
          setValidation(undefined);
          form.set('text', v);
        }}
        onFile={(f) => {
          setValidation(undefined);
          setFile(f);
        }}
        error={form.errorAt('data')}
      />
      {validation && (
        <div class="card" role="status">
          <Findings title="What stops the import" findings={validation.errors} />
          <Findings title="Permissions you lack" findings={validation.permissions} />
          <Findings title="Worth knowing" findings={validation.warnings} />
          {importable && <p>The import can go ahead.</p>}
        </div>
      )}
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {importable ? 'Import' : 'Check the import'}
        </Button>
        {done && <span role="status">Imported.</span>}
      </div>
    </Form>
  );
}

/** Flags of one project in one environment, in Unleash's export format: export, check and import. */
export function FeaturesTransfer(props: Props) {
  return (
    <section class="card stack" aria-labelledby="features-transfer">
      <h2 id="features-transfer">Flags of a project</h2>
      <p class="muted">In Unleash's export format, so flags move between Flagpole and Unleash too.</p>
      <ExportForm {...props} />
      <ImportForm {...props} />
    </section>
  );
}
