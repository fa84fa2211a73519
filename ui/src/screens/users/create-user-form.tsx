import { api } from '../../api/client';
import type { Role } from '../../api/people';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';
import { PASSWORD_RULES } from '../../shared/password-rules';

/** Who was created, and the link that lets them set their password when none was given. */
export interface CreatedUser {
  name: string;
  resetLink?: string;
}

interface Props {
  rootRoles: Role[];
  onCreated(created: CreatedUser): void;
  onCancel(): void;
}

/** A new user with a root role; without a password, they set one from a reset link made at once. */
export function CreateUserForm({ rootRoles, onCreated, onCancel }: Props) {
  const form = useForm({ username: '', email: '', name: '', password: '', rootRole: '3' });
  return (
    <Form
      label="New user"
      class="form card"
      error={form.error}
      onSubmit={form.onSubmit(async ({ username, email, password, rootRole, name }) => {
        await api.post('/api/admin/user-admin', {
          name,
          rootRole: Number(rootRole),
          ...(username ? { username } : {}),
          ...(email ? { email } : {}),
          ...(password ? { password } : {}),
        });
        const created = { name: name || username || email };
        if (password || !email) return onCreated(created);
        const { resetPasswordUrl } = await api.post<{ resetPasswordUrl: string }>(
          '/api/admin/user-admin/reset-password',
          { id: email },
        );
        onCreated({ ...created, resetLink: resetPasswordUrl });
      })}
    >
      <h2>New user</h2>
      <div class="row">
        <TextField label="Username" {...form.field('username')} />
        <TextField label="Email" type="email" {...form.field('email')} />
      </div>
      <TextField label="Name" {...form.field('name')} />
      <TextField
        label="Password (optional)"
        type="password"
        autoComplete="new-password"
        hint={`${PASSWORD_RULES} Without one, send the user a reset link.`}
        {...form.field('password')}
      />
      <SelectField
        label="Root role"
        {...form.field('rootRole')}
        choices={rootRoles.map((r) => ({ value: String(r.id), label: r.name }))}
      />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Create user
        </Button>
        <Button variant="quiet" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
