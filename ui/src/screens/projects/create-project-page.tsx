import { api } from '../../api/client';
import { Button } from '../../components/button';
import { TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { idCheck, idFromName, required } from '../../forms/checks';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { Link, navigate, type RouteProps } from '../../router';

export function CreateProjectPage(_props: RouteProps) {
  const form = useForm(
    { id: '', name: '', description: '' },
    { conflictField: 'id', checks: { id: idCheck, name: required } },
  );
  const nameField = form.field('name');
  return (
    <>
      <PageHeader title="New project" trail={[{ href: '/projects', label: 'Projects' }]} />
      <Form
        label="New project"
        error={form.error}
        onSubmit={form.onSubmit(async (values) => {
          const project = await api.post<{ id: string }>('/api/admin/projects', values);
          navigate(`/projects/${encodeURIComponent(project.id)}`);
        })}
      >
        <TextField
          label="Name"
          required
          {...nameField}
          onValue={(name) =>
            // The id follows the name until it is typed in its own right.
            form.update((v) => ({ ...v, name, id: v.id === idFromName(v.name) ? idFromName(name) : v.id }))
          }
        />
        <TextField
          label="Id"
          hint="Used in URLs and API tokens: letters, digits, '-', '_' and '.'. It cannot change later."
          required
          {...form.field('id')}
        />
        <TextAreaField label="Description" {...form.field('description')} />
        <div class="actions">
          <Button type="submit" variant="primary" busy={form.submitting}>
            Create project
          </Button>
          <Link href="/projects" class="button button-secondary">
            Cancel
          </Link>
        </div>
      </Form>
    </>
  );
}
