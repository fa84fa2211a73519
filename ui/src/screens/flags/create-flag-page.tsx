import { api, seg } from '../../api/client';
import type { FeatureType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { flagNameCheck } from '../../forms/checks';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { Link, navigate, type RouteProps } from '../../router';
import { flagHref } from '../../shared/links';
import { useProjectTrail } from '../projects/project-trail';

/** A new flag: off in every environment of the project until someone turns it on. */
export function CreateFlagPage({ params }: RouteProps) {
  const project = params.projectId!;
  const trail = useProjectTrail(project);
  const types = useResource<{ types: FeatureType[] }>('/api/admin/feature-types');
  const form = useForm(
    { name: '', type: 'release', description: '', impressionData: false },
    { conflictField: 'name', checks: { name: flagNameCheck } },
  );
  const projectHref = `/projects/${encodeURIComponent(project)}`;
  const chosen = types.data?.types.find((t) => t.id === form.values.type);
  return (
    <>
      <PageHeader title="New flag" trail={trail} />
      <Form
        label="New flag"
        error={form.error}
        onSubmit={form.onSubmit(async ({ description, ...values }) => {
          await api.post(`/api/admin/projects/${seg(project)}/features`, {
            ...values,
            ...(description ? { description } : {}),
          });
          navigate(flagHref(project, values.name));
        })}
      >
        <TextField
          label="Name"
          hint="What the code asks for: letters, digits and - _ . ! ~ * ' ( ). It cannot change later."
          required
          autoComplete="off"
          {...form.field('name')}
        />
        <SelectField
          label="Type"
          {...form.field('type')}
          choices={(types.data?.types ?? [{ id: 'release', name: 'Release' }]).map((t) => ({
            value: t.id,
            label: t.name,
          }))}
          hint={chosen?.description}
        />
        <TextAreaField label="Description" {...form.field('description')} />
        <CheckboxField
          label="Impression data"
          hint="SDKs emit an event each time they evaluate this flag."
          {...form.checkbox('impressionData')}
        />
        <div class="actions">
          <Button type="submit" variant="primary" busy={form.submitting}>
            Create flag
          </Button>
          <Link href={projectHref} class="button button-secondary">
            Cancel
          </Link>
        </div>
      </Form>
    </>
  );
}
