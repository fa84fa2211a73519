import { api } from '../../api/client';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';
import { PublicCard } from '../../layout/public-card';
import type { RouteProps } from '../../routes';
import { useSignedIn } from '../../session';

/** Username (or email) and password; on success the page asked for opens. */
export function SignInPage(_props: RouteProps) {
  const signedIn = useSignedIn();
  const form = useForm({ username: '', password: '' });
  return (
    <PublicCard title="Sign in to Flagpole">
      <Form
        label="Sign in"
        error={form.error}
        onSubmit={form.onSubmit(async (values) => {
          await api.post('/auth/simple/login', values);
          await signedIn();
        })}
      >
        <TextField
          label="Username or email"
          name="username"
          autoComplete="username"
          autoFocus
          required
          value={form.values.username}
          onValue={(v) => form.set('username', v)}
          error={form.errorAt('username')}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={form.values.password}
          onValue={(v) => form.set('password', v)}
          error={form.errorAt('password')}
        />
        <Button type="submit" variant="primary" busy={form.submitting}>
          Sign in
        </Button>
      </Form>
    </PublicCard>
  );
}
