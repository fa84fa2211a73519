import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { displayName, type Role } from '../../api/people';
import type { User } from '../../api/types';
import { Button } from '../../components/button';
import { useConfirm } from '../../components/confirm';
import { SelectField } from '../../components/fields';
import { SecretReveal } from '../../components/secret-reveal';
import { Problem } from '../../components/status';
import { formatDateTime } from '../../format';
import { useAction } from '../../forms/use-action';

interface Props {
  user: User;
  rootRoles: Role[];
  isSelf: boolean;
  onChanged(): void;
}

/** A user with their root role (changed in place), a reset link to hand them, and deletion. */
export function UserRow({ user, rootRoles, isSelf, onChanged }: Props) {
  const confirm = useConfirm();
  const { run, busy, problem } = useAction();
  const [resetLink, setResetLink] = useState<string>();
  const name = displayName(user);

  const changeRole = (rootRole: string) =>
    run(async () => {
      await api.put(`/api/admin/user-admin/${user.id}`, { rootRole: Number(rootRole) });
      onChanged();
    });
  const makeResetLink = () =>
    run(async () => {
      const answer = await api.post<{ resetPasswordUrl: string }>('/api/admin/user-admin/reset-password', {
        id: user.email,
      });
      setResetLink(answer.resetPasswordUrl);
    });
  const remove = async () => {
    const confirmed = await confirm({
      title: `Delete the user “${name}”?`,
      body: <p>They can no longer sign in, and their personal access tokens stop working.</p>,
      confirmLabel: 'Delete user',
      danger: true,
    });
    if (confirmed)
      await run(async () => {
        await api.del(`/api/admin/user-admin/${user.id}`);
        onChanged();
      });
  };

  return (
    <tr>
      <th scope="row" data-label="User">
        {name}
        <p class="muted flag-description">{[user.username, user.email].filter(Boolean).join(' · ')}</p>
        <Problem message={problem} />
        {resetLink && <SecretReveal label={`Reset link for ${name}:`} secret={resetLink} />}
      </th>
      <td data-label="Root role">
        <SelectField
          label={<span class="visually-hidden">Root role of {name}</span>}
          value={String(user.rootRole)}
          choices={rootRoles.map((r) => ({ value: String(r.id), label: r.name }))}
          onValue={changeRole}
          disabled={busy || isSelf}
        />
      </td>
      <td data-label="Last seen">{formatDateTime(user.seenAt)}</td>
      <td data-label="Actions">
        <div class="actions">
          {user.email && (
            <Button onClick={makeResetLink} busy={busy} aria-label={`Make a password reset link for ${name}`}>
              Reset link
            </Button>
          )}
          {!isSelf && (
            <Button variant="danger" onClick={remove} busy={busy} aria-label={`Delete ${name}`}>
              Delete
            </Button>
          )}
        </div>
      </td>
    </tr>
  );
}
