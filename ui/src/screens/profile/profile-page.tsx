import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { displayName } from '../../api/people';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';
import { forgetDefaultPassword } from '../../layout/default-password';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useSession } from '../../session';
import { PASSWORD_RULES } from '../../shared/password-rules';
import { PersonalTokens } from './personal-tokens';

function ChangePasswordForm() {
  const form = useForm({ oldPassword: '', password: '', confirmPassword: '' });
  const [done, setDone] = useState(false);
  return (
    <Form
      label="Change your password"
      error={form.error}
      onSubmit={form.onSubmit(async (values) => {
        setDone(false);
        await api.post('/api/admin/user/change-password', values);
        forgetDefaultPassword();
        form.update(() => ({ oldPassword: '', password: '', confirmPassword: '' }));
        setDone(true);
      })}
    >
      <h2>Password</h2>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        {...form.field('oldPassword')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_RULES}
        {...form.field('password')}
      />
      <TextField
        label="New password, again"
        type="password"
        autoComplete="new-password"
        {...form.field('confirmPassword')}
      />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Change password
        </Button>
        {done && <span role="status">Your password is changed.</span>}
      </div>
    </Form>
  );
}

/** The signed-in user: their password and personal access tokens. */
export function ProfilePage(_props: RouteProps) {
  const { me } = useSession();
  return (
    <>
      <PageHeader title={displayName(me.user)}>
        <p class="muted">{[me.user.username, me.user.email].filter(Boolean).join(' · ')}</p>
      </PageHeader>
      <div class="environment-panels">
        <section class="card" aria-label="Password">
          <ChangePasswordForm />
        </section>
        <PersonalTokens />
      </div>
    </>
  );
}
