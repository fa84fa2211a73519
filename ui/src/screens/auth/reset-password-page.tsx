import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { ErrorMessage, Loaded } from '../../components/status';
import { useForm } from '../../forms/use-form';
import { PublicCard } from '../../layout/public-card';
import { Link, type RouteProps } from '../../router';
import { PASSWORD_RULES } from '../../shared/password-rules';

interface ResetTokenUser {
  email: string | null;
  username: string | null;
  name: string | null;
}

function NewPasswordForm({ token, user, onDone }: { token: string; user: ResetTokenUser; onDone(): void }) {
  const form = useForm({ password: '', repeat: '' });
  const mismatch = form.values.repeat !== '' && form.values.repeat !== form.values.password;
  return (
    <Form
      label="Set a new password"
      error={form.error}
      onSubmit={form.onSubmit(async ({ password }) => {
        if (mismatch) return;
        await api.post('/auth/reset/password', { token, password });
        onDone();
      })}
    >
      <p>
        For <strong>{user.email ?? user.username ?? user.name}</strong>.
      </p>
      <input type="text" autoComplete="username" value={user.email ?? user.username ?? ''} hidden readOnly />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        hint={PASSWORD_RULES}
        {...form.field('password')}
      />
      <TextField
        label="New password, again"
        type="password"
        autoComplete="new-password"
        required
        {...form.field('repeat')}
        error={mismatch ? 'The two passwords differ.' : undefined}
      />
      <Button type="submit" variant="primary" busy={form.submitting} disabled={mismatch}>
        Set password
      </Button>
    </Form>
  );
}

/** `/reset-password?token=…`: the page a password reset link opens. */
export function ResetPasswordPage({ query }: RouteProps) {
  const token = query.get('token') ?? '';
  const user = useResource<ResetTokenUser>(
    token ? `/auth/reset/validate?token=${encodeURIComponent(token)}` : null,
  );
  const [done, setDone] = useState(false);
  return (
    <PublicCard title="Set your password">
      {done ? (
        <p role="status">
          Your password is set. <Link href="/login">Sign in</Link> with it.
        </p>
      ) : !token ? (
        <p>This page needs the reset link you were sent. Ask an administrator for one.</p>
      ) : (
        <Loaded
          resources={[user]}
          label="Checking the link…"
          renderError={(error) => (
            <>
              <ErrorMessage error={error} />
              <p>Ask an administrator for a new link.</p>
            </>
          )}
        >
          {(read) => <NewPasswordForm token={token} user={read} onDone={() => setDone(true)} />}
        </Loaded>
      )}
    </PublicCard>
  );
}
