import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { SecretReveal } from '../../components/secret-reveal';
import { Empty, Loaded, Problem } from '../../components/status';
import { formatDate, formatDateTime } from '../../format';
import { isoFromLocalInput, localInputInDays } from '../../forms/dates';
import { useAction } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';

interface PersonalToken {
  id: number;
  description: string;
  expiresAt: string;
  createdAt: string;
  seenAt: string | null;
}

function CreatePersonalToken({ onCreated }: { onCreated(secret: string): void }) {
  const form = useForm({ description: '', expiresAt: localInputInDays(30) });
  return (
    <Form
      label="New personal access token"
      class="inline-form"
      error={form.error}
      onSubmit={form.onSubmit(async ({ description, expiresAt }) => {
        const token = await api.post<{ secret: string }>('/api/admin/user/tokens', {
          description,
          expiresAt: isoFromLocalInput(expiresAt),
        });
        form.set('description', '');
        onCreated(token.secret);
      })}
    >
      <TextField label="What it is for" required {...form.field('description')} />
      <TextField label="Expires" type="datetime-local" {...form.field('expiresAt')} />
      <Button type="submit" variant="primary" busy={form.submitting}>
        Create token
      </Button>
    </Form>
  );
}

function PersonalTokenRow({ token, onDeleted }: { token: PersonalToken; onDeleted(): void }) {
  const action = useAction();
  return (
    <tr>
      <th scope="row" data-label="Token">
        {token.description}
        <Problem message={action.problem} />
      </th>
      <td data-label="Created">{formatDate(token.createdAt)}</td>
      <td data-label="Last used">{formatDateTime(token.seenAt)}</td>
      <td data-label="Expires">{formatDate(token.expiresAt)}</td>
      <td data-label="Actions">
        <DeleteButton
          confirm={{
            title: `Delete the token “${token.description}”?`,
            body: <p>Scripts that use it get 401 from now on.</p>,
            confirmLabel: 'Delete token',
          }}
          onDelete={async () => {
            await api.del(`/api/admin/user/tokens/${token.id}`);
            onDeleted();
          }}
          action={action}
          aria-label={`Delete ${token.description}`}
        />
      </td>
    </tr>
  );
}

/** The user's personal access tokens: the admin API as this user, for scripts. */
export function PersonalTokens() {
  const tokens = useResource<{ pats: PersonalToken[] }>('/api/admin/user/tokens');
  const [secret, setSecret] = useState<string>();
  return (
    <section class="card stack" aria-labelledby="pats">
      <h2 id="pats">Personal access tokens</h2>
      <p class="muted">A script that sends one acts as you, with your permissions.</p>
      <CreatePersonalToken
        onCreated={(created) => {
          setSecret(created);
          tokens.reload();
        }}
      />
      {secret && <SecretReveal label="The new token:" secret={secret} />}
      <Loaded resources={[tokens]}>
        {({ pats }) =>
          pats.length === 0 ? (
            <Empty>You have no personal access tokens.</Empty>
          ) : (
            <table class="table">
              <caption class="visually-hidden">Your personal access tokens</caption>
              <thead>
                <tr>
                  <th scope="col">Token</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {pats.map((t) => (
                  <PersonalTokenRow key={t.id} token={t} onDeleted={tokens.reload} />
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </section>
  );
}
