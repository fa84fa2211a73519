import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { SelectField, TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Loaded } from '../../components/status';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { navigate, type RouteProps } from '../../router';
import { useCan } from '../../session';
import { ChangeRequestSettings } from './change-request-settings';

interface ProjectSettings {
  id: string;
  name: string;
  description: string | null;
  mode: string;
  defaultStickiness: string;
}

const MODES = [
  { value: 'open', label: 'Open' },
  { value: 'protected', label: 'Protected' },
  { value: 'private', label: 'Private: hidden from users who are not its members' },
];

function SettingsForm({ project, onSaved }: { project: ProjectSettings; onSaved(): Promise<void> }) {
  const canUpdate = useCan('UPDATE_PROJECT', { project: project.id });
  const form = useForm({
    name: project.name,
    description: project.description ?? '',
    mode: project.mode,
    defaultStickiness: project.defaultStickiness,
  });
  const [saved, setSaved] = useState(false);
  return (
    <Form
      label="Project settings"
      error={form.error}
      onSubmit={form.onSubmit(async (values) => {
        setSaved(false);
        await api.put(`/api/admin/projects/${seg(project.id)}`, values);
        await onSaved();
        setSaved(true);
      })}
    >
      <TextField label="Name" required disabled={!canUpdate} {...form.field('name')} />
      <TextAreaField label="Description" disabled={!canUpdate} {...form.field('description')} />
      <SelectField label="Visibility" choices={MODES} disabled={!canUpdate} {...form.field('mode')} />
      <TextField
        label="Default stickiness"
        hint="The context field a new gradual rollout keeps a user's answer by (default: userId, then sessionId, then random)."
        required
        disabled={!canUpdate}
        {...form.field('defaultStickiness')}
      />
      {canUpdate && (
        <div class="actions">
          <Button type="submit" variant="primary" busy={form.submitting}>
            Save project
          </Button>
          {saved && <span role="status">Saved.</span>}
        </div>
      )}
    </Form>
  );
}

/**
 * A project's name, description, visibility and stickiness; the environments that need change
 * requests; and deleting it once it holds no live flag.
 */
export function ProjectSettingsPage({ params }: RouteProps) {
  const id = params.projectId!;
  const project = useResource<ProjectSettings>(`/api/admin/projects/${seg(id)}`);
  const canDelete = useCan('DELETE_PROJECT', { project: id });
  // Named from this page's own read, so that a new name shows as soon as it is saved.
  const trail = [
    { href: '/projects', label: 'Projects' },
    { href: `/projects/${encodeURIComponent(id)}`, label: project.data?.name ?? id },
  ];
  const header = <PageHeader title="Project settings" trail={trail} />;
  return (
    <Loaded resources={[project]} header={header}>
      {(details) => (
        <>
          {header}
          <SettingsForm project={details} onSaved={project.reload} />
          <ChangeRequestSettings project={id} />
          {canDelete && id !== 'default' && (
            <section class="danger-zone" aria-labelledby="delete-title">
              <h2 id="delete-title">Delete the project</h2>
              <p class="muted">
                Only a project without live flags can be deleted: archive or move its flags first. Its
                archived flags go with it.
              </p>
              <DeleteButton
                confirm={{
                  title: `Delete the project “${details.name}”?`,
                  body: <p>Its archived flags go with it and cannot be revived. This cannot be undone.</p>,
                  confirmLabel: 'Delete project',
                }}
                onDelete={async () => {
                  await api.del(`/api/admin/projects/${seg(id)}`);
                  navigate('/projects');
                }}
              >
                Delete project
              </DeleteButton>
            </section>
          )}
        </>
      )}
    </Loaded>
  );
}
