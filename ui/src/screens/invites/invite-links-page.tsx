import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { CopyButton } from '../../components/copy-button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Empty, Loaded, Problem } from '../../components/status';
import { formatDateTime } from '../../format';
import { isoFromLocalInput, localInputInDays } from '../../forms/dates';
import { useAction } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';

interface InviteLink {
  secret: string;
  url: string | null;
  name: string;
  enabled: boolean;
  expiresAt: string;
  createdBy: string | null;
  users: { id: number }[];
}

function CreateInviteForm({ onCreated }: { onCreated(): void }) {
  const form = useForm({ name: '', expiresAt: localInputInDays(7) });
  return (
    <Form
      label="New invite link"
      class="form card"
      error={form.error}
      onSubmit={form.onSubmit(async ({ name, expiresAt }) => {
        await api.post('/api/admin/invite-link/tokens', { name, expiresAt: isoFromLocalInput(expiresAt) });
        form.set('name', '');
        onCreated();
      })}
    >
      <h2>New invite link</h2>
      <p class="muted">People who join with it become Viewers.</p>
      <div class="row">
        <TextField label="Name" required {...form.field('name')} />
        <TextField
          label="Expires"
          type="datetime-local"
          hint="At most one month from now."
          {...form.field('expiresAt')}
        />
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Create invite link
        </Button>
      </div>
    </Form>
  );
}

function InviteRow({ link, onChanged }: { link: InviteLink; onChanged(): void }) {
  const { run, busy, problem } = useAction();
  const toggle = () =>
    run(async () => {
      await api.put(`/api/admin/invite-link/tokens/${seg(link.secret)}`, { enabled: !link.enabled });
      onChanged();
    });
  return (
    <tr>
      <th scope="row" data-label="Invite link">
        {link.name}
        {link.url && (
          <div class="secret-value">
            <code>{link.url}</code>
            <CopyButton text={link.url} label="Copy link" />
          </div>
        )}
        <Problem message={problem} />
      </th>
      <td data-label="Expires">{formatDateTime(link.expiresAt)}</td>
      <td data-label="Joined">{link.users.length}</td>
      <td data-label="State">
        <Button
          onClick={toggle}
          busy={busy}
          aria-label={`${link.enabled ? 'Turn off' : 'Turn on'} ${link.name}`}
        >
          {link.enabled ? 'Turn off' : 'Turn on'}
        </Button>
      </td>
    </tr>
  );
}

/** Links that let people sign up on their own, as Viewers, until they expire. */
export function InviteLinksPage(_props: RouteProps) {
  const links = useResource<{ tokens: InviteLink[] }>('/api/admin/invite-link/tokens');
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Invite links"
        actions={
          !creating && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              New invite link
            </Button>
          )
        }
      />
      {creating && (
        <CreateInviteForm
          onCreated={() => {
            setCreating(false);
            links.reload();
          }}
        />
      )}
      <Loaded resources={[links]}>
        {({ tokens }) =>
          tokens.length === 0 ? (
            <Empty>There are no invite links.</Empty>
          ) : (
            <table class="table">
              <caption class="visually-hidden">Invite links</caption>
              <thead>
                <tr>
                  <th scope="col">Invite link</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Joined</th>
                  <th scope="col">
                    <span class="visually-hidden">State</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((link) => (
                  <InviteRow key={link.secret} link={link} onChanged={links.reload} />
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </>
  );
}
