import { api, seg } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { ErrorMessage, Loaded } from '../../components/status';
import { useForm } from '../../forms/use-form';
import { PublicCard } from '../../layout/public-card';
import { Link, type RouteProps } from '../../router';
import { useSignedIn } from '../../session';
import { PASSWORD_RULES } from '../../shared/password-rules';

function SignupForm({ invite }: { invite: string }) {
  const signedIn = useSignedIn();
  const form = useForm({ email: '', name: '', username: '', password: '' });
  return (
    <Form
      label="Create your account"
      error={form.error}
      onSubmit={form.onSubmit(async ({ username, ...values }) => {
        await api.post(`/invite/${seg(invite)}/signup`, { ...values, ...(username ? { username } : {}) });
        await api.post('/auth/simple/login', { username: values.email, password: values.password });
        await signedIn();
      })}
    >
      <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
      <TextField label="Name" autoComplete="name" {...form.field('name')} />
      <TextField label="Username (optional)" autoComplete="username" {...form.field('username')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        hint={PASSWORD_RULES}
        {...form.field('password')}
      />
      <Button type="submit" variant="primary" busy={form.submitting}>
        Create account
      </Button>
    </Form>
  );
}

/** `/new-user?invite=…`: the page an invite link opens; the new user gets the Viewer role. */
export function NewUserPage({ query }: RouteProps) {
  const invite = query.get('invite') ?? '';
  const validity = useResource<void>(invite ? `/invite/${seg(invite)}/validate` : null);
  return (
    <PublicCard title="Join Flagpole">
      {!invite ? (
        <p>This page needs the invite link you were sent. Ask an administrator for one.</p>
      ) : (
        <Loaded
          resources={[validity]}
          label="Checking the invite link…"
          renderError={(error) => (
            <>
              <ErrorMessage error={error} />
              <p>
                The link may have expired. Ask for a new one, or <Link href="/login">sign in</Link>.
              </p>
            </>
          )}
        >
          {() => <SignupForm invite={invite} />}
        </Loaded>
      )}
    </PublicCard>
  );
}
