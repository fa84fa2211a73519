import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import type { Action } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';
import { useCan } from '../../session';

export interface TagType {
  name: string;
  description: string | null;
  icon: string | null;
}

/** One tag type: its description changed in place, or the type deleted (refused while flags carry it). */
export function TagTypeRow({
  tagType,
  action,
  onSaved,
}: {
  tagType: TagType;
  action: Action;
  onSaved(): Promise<void>;
}) {
  const canUpdate = useCan('UPDATE_TAG_TYPE');
  const canDelete = useCan('DELETE_TAG_TYPE');
  const [editing, setEditing] = useState(false);
  const form = useForm({ description: tagType.description ?? '' });
  const path = `/api/admin/tag-types/${seg(tagType.name)}`;
  return (
    <li class="card">
      <h2>{tagType.name}</h2>
      {editing ? (
        <Form
          label={`Description of ${tagType.name}`}
          error={form.error}
          onSubmit={form.onSubmit(async ({ description }) => {
            // What the form does not show (the icon) goes back as it is.
            await api.put(path, { description: description || null, icon: tagType.icon });
            await onSaved();
            setEditing(false);
          })}
        >
          <TextField label="Description" {...form.field('description')} />
          <div class="actions">
            <Button type="submit" variant="primary" busy={form.submitting}>
              Save
            </Button>
            <Button variant="quiet" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </Form>
      ) : (
        <>
          <p class="muted">{tagType.description || 'No description'}</p>
          <div class="actions">
            {canUpdate && (
              <Button onClick={() => setEditing(true)} aria-label={`Edit ${tagType.name}`}>
                Edit
              </Button>
            )}
            {canDelete && (
              <DeleteButton
                confirm={{
                  title: `Delete the tag type “${tagType.name}”?`,
                  body: (
                    <p>Its tags can no longer be given to flags. A type some flag still carries is kept.</p>
                  ),
                  confirmLabel: 'Delete tag type',
                }}
                onDelete={() => api.del(path)}
                action={action}
                aria-label={`Delete ${tagType.name}`}
              />
            )}
          </div>
        </>
      )}
    </li>
  );
}
