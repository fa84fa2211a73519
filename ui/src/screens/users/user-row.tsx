import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client';
import { displayName, type Role } from '../../api/people';
import type { User } from '../../api/types';
import { Button } from '../../components/button';
import { useConfirm } from '../../components/confirm';
import { DeleteButton } from '../../components/delete-button';
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

/**
 * A user with their root role (changed in place once confirmed, and said so), a reset link to hand
 * them, and deletion.
 */
export function UserRow({ user, rootRoles, isSelf, onChanged }: Props) {
  const action = useAction();
  const { run, busy, problem } = action;
  const confirm = useConfirm();
  const [resetLink, setResetLink] = useState<string>();
  const [saved, setSaved] = useState<string>();
  // The role confirmed, shown until the list read again has it; after a cancelled choice, the row
  // is drawn again so that the list shows the role the user still has.
  const [chosen, setChosen] = useState<number>();
  const [, redraw] = useState(0);
  useEffect(() => setChosen(undefined), [user.rootRole]);
  const name = displayName(user);

  const changeRole = async (rootRole: string) => {
    const role = rootRoles.find((r) => String(r.id) === rootRole);
    if (busy || !role) return;
    const current = rootRoles.find((r) => r.id === user.rootRole);
    setSaved(undefined);
    const confirmed = await confirm({
      title: `Make ${name} ${role.name}?`,
      body: (
        <p>
          {current ? `${name} is ${current.name} now. ` : ''}
          {role.description ? `As ${role.name}: ${role.description}` : `The role ${role.name} replaces it.`}
        </p>
      ),
      confirmLabel: `Make ${role.name}`,
    });
    if (!confirmed) {
      redraw((n) => n + 1);
      return;
    }
    setChosen(role.id);
    const done = await run(async () => {
      await api.put(`/api/admin/user-admin/${user.id}`, { rootRole: role.id });
      onChanged();
    });
    if (done) setSaved(`Saved: ${name} is ${role.name} now.`);
    else setChosen(undefined);
  };
  const makeResetLink = () =>
    run(async () => {
      const answer = await api.post<{ resetPasswordUrl: string }>('/api/admin/user-admin/reset-password', {
        id: user.email,
      });
      setResetLink(answer.resetPasswordUrl);
    });

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
          value={String(chosen ?? user.rootRole)}
          choices={rootRoles.map((r) => ({ value: String(r.id), label: r.name }))}
          onValue={changeRole}
          disabled={isSelf}
        />
        <span role="status" class="muted">
          {saved}
        </span>
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
            <DeleteButton
              confirm={{
                title: `Delete the user “${name}”?`,
                body: <p>They can no longer sign in, and their personal access tokens stop working.</p>,
                confirmLabel: 'Delete user',
              }}
              onDelete={async () => {
                await api.del(`/api/admin/user-admin/${user.id}`);
                onChanged();
              }}
              action={action}
              aria-label={`Delete ${name}`}
            />
          )}
        </div>
      </td>
    </tr>
  );
}
