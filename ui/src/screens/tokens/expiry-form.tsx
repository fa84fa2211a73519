import { api } from '../../api/client';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { isoFromLocalInput, localInputInDays } from '../../forms/dates';
import { useForm } from '../../forms/use-form';
import type { ApiToken } from './api-token';

interface Props {
  token: ApiToken;
  onSaved(): void;
  onCancel(): void;
}

/** A token's new expiry, which counts from the next request that uses it. */
export function ExpiryForm({ token, onSaved, onCancel }: Props) {
  const form = useForm({ expiresAt: localInputInDays(30) });
  return (
    <Form
      label={`New expiry of ${token.tokenName}`}
      class="inline-form"
      error={form.error}
      onSubmit={form.onSubmit(async ({ expiresAt }) => {
        await api.put(`/api/admin/api-tokens/${token.id}`, { expiresAt: isoFromLocalInput(expiresAt) });
        onSaved();
      })}
    >
      <TextField label="New expiry" type="datetime-local" required {...form.field('expiresAt')} />
      <Button type="submit" variant="primary" busy={form.submitting}>
        Save
      </Button>
      <Button variant="quiet" onClick={onCancel}>
        Cancel
      </Button>
    </Form>
  );
}
