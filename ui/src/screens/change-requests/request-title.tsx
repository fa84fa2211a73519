import { api } from '../../api/client';
import { requestsPath } from '../../change-requests/drafts';
import type { ChangeRequest } from '../../change-requests/types';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';

interface Props {
  request: ChangeRequest;
  onSaved(): Promise<void>;
  onClose(): void;
}

/** Names the request: a title says reviewers what it is for better than its number. */
export function TitleForm({ request, onSaved, onClose }: Props) {
  const form = useForm({ title: request.title ?? '' });
  return (
    <Form
      label="Title of the change request"
      class="inline-form"
      error={form.error}
      onSubmit={form.onSubmit(async ({ title }) => {
        await api.put(`${requestsPath(request.project)}/${request.id}/title`, { title: title.trim() });
        await onSaved();
        onClose();
      })}
    >
      <TextField label="Title" required autoFocus {...form.field('title')} />
      <Button type="submit" variant="primary" busy={form.submitting}>
        Save title
      </Button>
      <Button variant="quiet" onClick={onClose}>
        Cancel
      </Button>
    </Form>
  );
}
