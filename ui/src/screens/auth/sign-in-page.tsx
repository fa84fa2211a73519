import { api, type SignInOption } from '../../api/client';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';
import { noteSignInPassword } from '../../layout/default-password';
import { PublicCard } from '../../layout/public-card';
import type { RouteProps } from '../../router';
import { useSignedIn, useSignInChoices } from '../../session';

/**
 * Where a sign-in option begins, asked to come back to the page this one stands for: the sign-in
 * page shows at the address of the page asked for (a deep link).
 */
function optionHref(option: SignInOption): string {
  const { pathname, search, hash } = window.location;
  const url = new URL(option.path, window.location.origin);
  url.searchParams.set('redirect', `${pathname}${search}${hash}`);
  return url.origin === window.location.origin ? `${url.pathname}${url.search}` : url.href;
}

function PasswordForm({ first }: { first: boolean }) {
  const signedIn = useSignedIn();
  const form = useForm({ username: '', password: '' });
  return (
    <Form
      label="Sign in"
      error={form.error}
      onSubmit={form.onSubmit(async (values) => {
        await api.post('/auth/simple/login', values);
        noteSignInPassword(values.password);
        await signedIn();
      })}
    >
      <TextField
        label="Username or email"
        name="username"
        autoComplete="username"
        autoFocus={first}
        required
        {...form.field('username')}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        {...form.field('password')}
      />
      <Button type="submit" variant="primary" busy={form.submitting}>
        Sign in
      </Button>
    </Form>
  );
}

/**
 * The ways in the server offers: a link for each single sign-on option (OpenID Connect), and the
 * username (or email) and password form unless password sign-in is turned off. On success the
 * page asked for opens.
 */
export function SignInPage(_props: RouteProps) {
  const { defaultHidden, options } = useSignInChoices();
  return (
    <PublicCard title="Sign in to Flagpole">
      {options.length > 0 && (
        <div class="sign-in-options">
          {options.map((option) => (
            <a
              key={option.type}
              class={`button ${defaultHidden ? 'button-primary' : 'button-secondary'}`}
              href={optionHref(option)}
            >
              {option.message}
            </a>
          ))}
        </div>
      )}
      {options.length > 0 && !defaultHidden && <p class="sign-in-or muted">or with your password</p>}
      {!defaultHidden && <PasswordForm first={options.length === 0} />}
      {defaultHidden && options.length === 0 && (
        <p class="muted">
          Signing in with a password is turned off here, and no other way to sign in is set up. Ask an Admin
          of this Flagpole.
        </p>
      )}
    </PublicCard>
  );
}
