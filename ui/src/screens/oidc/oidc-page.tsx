import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { CheckboxField, SelectField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Loaded } from '../../components/status';
import { Switch } from '../../components/switch';
import { useAction } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';

interface OidcSettings {
  enabled?: boolean;
  discoverUrl?: string;
  clientId?: string;
  secret?: string;
  autoCreate?: boolean;
  enableSingleSignOut?: boolean;
  defaultRootRole?: 'Viewer' | 'Editor' | 'Admin';
  emailDomains?: string;
  requireEmailVerified?: boolean;
  acrValues?: string;
  idTokenSigningAlgorithm?: 'RS256' | 'RS384' | 'RS512';
}

interface SimpleSettings {
  disabled: boolean;
}

const SIMPLE_SETTINGS = '/api/admin/auth/simple/settings';

const ROOT_ROLES = ['Viewer', 'Editor', 'Admin'].map((r) => ({ value: r, label: r }));
const ALGORITHMS = ['RS256', 'RS384', 'RS512'].map((a) => ({ value: a, label: a }));

function OidcForm({ settings }: { settings: OidcSettings }) {
  const form = useForm({
    enabled: settings.enabled ?? false,
    discoverUrl: settings.discoverUrl ?? '',
    clientId: settings.clientId ?? '',
    secret: settings.secret ?? '',
    autoCreate: settings.autoCreate ?? false,
    enableSingleSignOut: settings.enableSingleSignOut ?? false,
    defaultRootRole: settings.defaultRootRole ?? 'Viewer',
    emailDomains: settings.emailDomains ?? '',
    // The server requires a verified address unless told otherwise.
    requireEmailVerified: settings.requireEmailVerified ?? true,
    acrValues: settings.acrValues ?? '',
    idTokenSigningAlgorithm: settings.idTokenSigningAlgorithm ?? 'RS256',
  });
  const [saved, setSaved] = useState(false);
  const { values } = form;
  // Saved before, and answered without its secret: the server cannot decrypt the one it stored.
  const secretUnreadable = settings.clientId !== undefined && settings.secret === undefined;
  return (
    <Form
      label="OpenID Connect"
      error={form.error}
      onSubmit={form.onSubmit(async (v) => {
        setSaved(false);
        // The settings are replaced as a whole: one this form does not know goes back as it came,
        // and a default never set stays unset rather than being written down.
        const body: Partial<OidcSettings> = { ...settings, ...v };
        if (settings.requireEmailVerified === undefined && v.requireEmailVerified)
          delete body.requireEmailVerified;
        await api.post('/api/admin/auth/oidc/settings', body);
        setSaved(true);
      })}
    >
      <CheckboxField label="Sign-in with OpenID Connect is on" {...form.checkbox('enabled')} />
      <TextField
        label="Discovery URL"
        type="url"
        hint="The provider's .well-known/openid-configuration address."
        {...form.field('discoverUrl')}
      />
      <div class="row">
        <TextField label="Client id" required {...form.field('clientId')} />
        <TextField
          label="Client secret"
          type="password"
          autoComplete="off"
          required
          {...form.field('secret')}
          hint={
            secretUnreadable
              ? 'The stored secret cannot be decrypted (FLAGPOLE_SECRET_KEY changed): enter it again.'
              : undefined
          }
        />
      </div>
      <CheckboxField label="Create users on their first sign-in" {...form.checkbox('autoCreate')} />
      {values.autoCreate && (
        <SelectField label="Their root role" {...form.field('defaultRootRole')} choices={ROOT_ROLES} />
      )}
      <TextField
        label="Only from the email domains"
        hint="Comma-separated, such as example.com, example.org. People are linked to users, or users created, only for addresses at these domains; empty: any."
        {...form.field('emailDomains')}
      />
      <CheckboxField
        label="Only addresses the provider says are verified"
        hint="Turn off for a provider that never sends email_verified, if you trust its addresses: a person is linked to the user with that address on their first sign-in."
        {...form.checkbox('requireEmailVerified')}
      />
      <CheckboxField
        label="Signing out ends the session at the provider too"
        {...form.checkbox('enableSingleSignOut')}
      />
      <div class="row">
        <TextField label="ACR values" hint="Space-separated." {...form.field('acrValues')} />
        <SelectField
          label="ID token signing algorithm"
          value={values.idTokenSigningAlgorithm}
          choices={ALGORITHMS}
          onValue={(v) =>
            form.set('idTokenSigningAlgorithm', v as OidcSettings['idTokenSigningAlgorithm'] & string)
          }
          error={form.errorAt('idTokenSigningAlgorithm')}
        />
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Save settings
        </Button>
        {saved && <span role="status">Saved.</span>}
      </div>
    </Form>
  );
}

/**
 * The switch of password sign-in. The server turns it off only while OpenID Connect sign-in works
 * (so that someone can always sign in), and says why not beside it.
 */
function PasswordSignIn({
  settings,
  onSaved,
}: {
  settings: SimpleSettings;
  onSaved(s: SimpleSettings): void;
}) {
  const action = useAction();
  const on = !settings.disabled;
  const toggle = () =>
    action.run(async () => onSaved(await api.post<SimpleSettings>(SIMPLE_SETTINGS, { disabled: on })));
  return (
    <div class="actions">
      <span class="switch-with-state">
        <Switch checked={on} label="Password sign-in" onToggle={toggle} busy={action.busy} />
        {on ? 'On' : 'Off'}
      </span>
      {action.problem && (
        <p class="field-error" role="alert">
          {action.problem}
        </p>
      )}
    </div>
  );
}

/** Single sign-on with an OpenID Connect provider, and whether passwords still let people in. */
export function OidcPage(_props: RouteProps) {
  const settings = useResource<OidcSettings>('/api/admin/auth/oidc/settings');
  const simple = useResource<SimpleSettings>(SIMPLE_SETTINGS);
  return (
    <>
      <PageHeader title="Single sign-on">
        <p class="muted">
          Settings for signing in through an OpenID Connect provider. API tokens and personal access tokens
          keep working whatever they say.
        </p>
      </PageHeader>
      <Loaded resources={[settings]}>{(data) => <OidcForm settings={data} />}</Loaded>
      <section class="card stack password-sign-in" aria-labelledby="password-sign-in">
        <h2 id="password-sign-in">Password sign-in</h2>
        <p class="muted">
          Signing in with a username (or email) and password. It can be turned off while sign-in with OpenID
          Connect works: the sign-in page then shows only the provider's button.
        </p>
        <Loaded resources={[simple]}>
          {(data) => <PasswordSignIn settings={data} onSaved={(saved) => simple.mutate(() => saved)} />}
        </Loaded>
      </section>
    </>
  );
}
