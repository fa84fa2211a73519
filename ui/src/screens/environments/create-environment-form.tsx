import { api } from '../../api/client';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { idCheck } from '../../forms/checks';
import { useForm } from '../../forms/use-form';
import { ENVIRONMENT_TYPES } from './environment-types';

/** A new environment, after the others; projects get it when linked to it. */
export function CreateEnvironmentForm({ last, onCreated }: { last: number; onCreated(): Promise<void> }) {
  const form = useForm(
    { name: '', type: 'development' },
    { conflictField: 'name', checks: { name: idCheck } },
  );
  return (
    <Form
      label="New environment"
      class="form card"
      error={form.error}
      onSubmit={form.onSubmit(async (values) => {
        await api.post('/api/admin/environments', { ...values, sortOrder: last + 1 });
        form.update(() => ({ name: '', type: 'development' }));
        await onCreated();
      })}
    >
      <h2>New environment</h2>
      <div class="row">
        <TextField
          label="Name"
          hint="Used in API tokens and URLs: letters, digits, '-', '_' and '.'."
          required
          {...form.field('name')}
        />
        <SelectField label="Type" choices={ENVIRONMENT_TYPES} {...form.field('type')} />
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Create environment
        </Button>
      </div>
    </Form>
  );
}
