import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Loaded, Problem } from '../../components/status';
import { flagNameCheck } from '../../forms/checks';
import { useAction } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useCan } from '../../session';
import { type TagType, TagTypeRow } from './tag-type-row';

/** The kinds of tags flags can carry (`simple`, `team`…): a tag is a type and a value. */
export function TagTypesPage(_props: RouteProps) {
  const tagTypes = useResource<{ tagTypes: TagType[] }>('/api/admin/tag-types');
  const action = useAction(tagTypes.reload);
  const canCreate = useCan('CREATE_TAG_TYPE');
  const form = useForm(
    { name: '', description: '' },
    { conflictField: 'name', checks: { name: flagNameCheck } },
  );
  return (
    <>
      <PageHeader title="Tag types">
        <p class="muted">
          A tag is a type and a value, such as team: payments. Flags are found and filtered by them.
        </p>
      </PageHeader>
      <Problem message={action.problem} />
      <Loaded resources={[tagTypes]}>
        {({ tagTypes: list }) => (
          <ul class="card-grid">
            {list.map((t) => (
              <TagTypeRow key={t.name} tagType={t} action={action} onSaved={tagTypes.reload} />
            ))}
          </ul>
        )}
      </Loaded>
      {canCreate && (
        <Form
          label="New tag type"
          class="form card"
          error={form.error}
          onSubmit={form.onSubmit(async ({ name, description }) => {
            await api.post('/api/admin/tag-types', { name, description: description || null });
            form.update(() => ({ name: '', description: '' }));
            await tagTypes.reload();
          })}
        >
          <h2>New tag type</h2>
          <div class="row">
            <TextField label="Name" required {...form.field('name')} />
            <TextField label="Description" {...form.field('description')} />
          </div>
          <div class="actions">
            <Button type="submit" variant="primary" busy={form.submitting}>
              Create tag type
            </Button>
          </div>
        </Form>
      )}
    </>
  );
}
