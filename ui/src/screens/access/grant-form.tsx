import { api, seg } from '../../api/client';
import type { Group } from '../../api/people';
import { displayName, type Role } from '../../api/people';
import type { User } from '../../api/types';
import { Button } from '../../components/button';
import { SelectField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';

interface Props {
  project: string;
  roles: Role[];
  users: User[];
  groups: Group[];
  onGranted(): void;
}

/** Gives a user or a group a role in the project (added to what they hold). */
export function GrantForm({ project, roles, users, groups, onGranted }: Props) {
  const form = useForm({ role: String(roles[0]?.id ?? ''), who: '' });
  return (
    <Form
      label="Grant access"
      class="form card"
      error={form.error}
      onSubmit={form.onSubmit(async ({ role, who }) => {
        const [kind, id] = who.split(':');
        await api.post(`/api/admin/projects/${seg(project)}/access`, {
          roles: [Number(role)],
          users: kind === 'user' ? [Number(id)] : [],
          groups: kind === 'group' ? [Number(id)] : [],
        });
        form.set('who', '');
        onGranted();
      })}
    >
      <h2>Grant access</h2>
      <div class="row">
        <SelectField
          label="User or group"
          {...form.field('who')}
          choices={[
            { value: '', label: 'Choose' },
            ...users.map((u) => ({ value: `user:${u.id}`, label: displayName(u) })),
            ...groups.map((g) => ({ value: `group:${g.id}`, label: `Group: ${g.name}` })),
          ]}
          error={form.errorAt('users') ?? form.errorAt('groups')}
        />
        <SelectField
          label="Role"
          {...form.field('role')}
          choices={roles.map((r) => ({ value: String(r.id), label: r.name }))}
          error={form.errorAt('roles')}
        />
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting} disabled={!form.values.who}>
          Grant
        </Button>
      </div>
    </Form>
  );
}
