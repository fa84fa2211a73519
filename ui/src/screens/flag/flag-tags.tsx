import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client';
import type { Tag } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Problem } from '../../components/status';
import { useAction } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';
import { useCan } from '../../session';

interface Props {
  project: string;
  feature: string;
}

interface AddTagProps {
  feature: string;
  types: string[];
  onAdded(): void;
  onDone(): void;
}

function AddTagForm({ feature, types, onAdded, onDone }: AddTagProps) {
  const form = useForm({ type: types[0] ?? 'simple', value: '' });
  return (
    <Form
      class="inline-form"
      label="Add a tag"
      error={form.error}
      onSubmit={form.onSubmit(async (values) => {
        await api.post(`/api/admin/features/${seg(feature)}/tags`, values);
        form.set('value', '');
        onAdded();
      })}
    >
      {types.length > 1 && (
        <SelectField
          label="Tag type"
          {...form.field('type')}
          choices={types.map((t) => ({ value: t, label: t }))}
        />
      )}
      <TextField label="New tag" autoFocus {...form.field('value')} />
      <Button type="submit" busy={form.submitting}>
        Add tag
      </Button>
      <Button variant="quiet" onClick={onDone}>
        Done
      </Button>
    </Form>
  );
}

/** A flag's tags; those who may change the flag add and remove them here. */
export function FlagTags({ project, feature }: Props) {
  const path = `/api/admin/features/${seg(feature)}/tags`;
  const tags = useResource<{ tags: Tag[] }>(path);
  const tagTypes = useResource<{ tagTypes: { name: string }[] }>('/api/admin/tag-types');
  const canChange = useCan('UPDATE_FEATURE', { project });
  const { run, problem } = useAction();
  const [adding, setAdding] = useState(false);
  const remove = (tag: Tag) =>
    run(async () => {
      await api.del(`${path}/${seg(tag.type)}/${seg(tag.value)}`);
      await tags.reload();
    });
  const list = tags.data?.tags ?? [];
  return (
    <div class="flag-tags">
      <Problem message={problem} />
      {list.length > 0 && (
        <ul class="tags" aria-label="Tags">
          {list.map((tag) => (
            <li key={`${tag.type}:${tag.value}`} class="tag">
              {tag.type === 'simple' ? tag.value : `${tag.type}: ${tag.value}`}
              {canChange && (
                <button
                  type="button"
                  class="tag-remove"
                  aria-label={`Remove the tag ${tag.value}`}
                  onClick={() => remove(tag)}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canChange &&
        tagTypes.data &&
        (adding ? (
          <AddTagForm
            feature={feature}
            types={tagTypes.data.tagTypes.map((t) => t.name)}
            onAdded={tags.reload}
            onDone={() => setAdding(false)}
          />
        ) : (
          <Button variant="quiet" class="add-tag" onClick={() => setAdding(true)}>
            + Add tag
          </Button>
        ))}
    </div>
  );
}
