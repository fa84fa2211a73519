import { api } from '../../api/client';
import type { Group } from '../../api/people';
import { displayName, type UserList } from '../../api/people';
import type { User } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { SelectField, TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Loaded } from '../../components/status';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { Link, navigate, type RouteProps } from '../../router';

const TRAIL = [{ href: '/admin/groups', label: 'Groups' }];

interface Draft {
  name: string;
  description: string;
  rootRole: string;
  members: number[];
}

function MemberPicker({
  users,
  members,
  onChange,
}: {
  users: User[];
  members: number[];
  onChange(ids: number[]): void;
}) {
  const others = users.filter((u) => !members.includes(u.id));
  return (
    <fieldset>
      <legend>Members</legend>
      <ul class="member-list">
        {members.map((id) => {
          const user = users.find((u) => u.id === id);
          const name = user ? displayName(user) : `User ${id}`;
          return (
            <li key={id}>
              {name}
              <Button
                variant="quiet"
                onClick={() => onChange(members.filter((m) => m !== id))}
                aria-label={`Remove ${name}`}
              >
                Remove
              </Button>
            </li>
          );
        })}
      </ul>
      {others.length > 0 && (
        <SelectField
          label="Add a member"
          value=""
          choices={[
            { value: '', label: 'Choose a user' },
            ...others.map((u) => ({ value: String(u.id), label: displayName(u) })),
          ]}
          onValue={(id) => id && onChange([...members, Number(id)])}
        />
      )}
    </fieldset>
  );
}

function GroupForm({ group, people }: { group: Group | null; people: UserList }) {
  const form = useForm<Draft>(
    {
      name: group?.name ?? '',
      description: group?.description ?? '',
      rootRole: group?.rootRole ? String(group.rootRole) : '',
      members: group?.users?.map((u) => u.user.id) ?? [],
    },
    { conflictField: 'name' },
  );
  const save = async ({ name, description, rootRole, members }: Draft) => {
    const body = {
      name,
      description: description || null,
      rootRole: rootRole ? Number(rootRole) : null,
      users: members.map((id) => ({ user: { id } })),
    };
    // A PUT replaces the whole group: what this form does not show (its single sign-on mappings, a
    // field a newer server adds) goes back as it came.
    if (group) await api.put(`/api/admin/groups/${group.id}`, { ...group, ...body });
    else await api.post('/api/admin/groups', body);
    navigate('/admin/groups');
  };
  return (
    <Form label="Group" error={form.error} onSubmit={form.onSubmit(save)}>
      <TextField label="Name" required {...form.field('name')} />
      <TextAreaField label="Description" {...form.field('description')} />
      <SelectField
        label="Root role"
        hint="Every member holds it too, besides their own."
        {...form.field('rootRole')}
        choices={[
          { value: '', label: 'None' },
          ...people.rootRoles.map((r) => ({ value: String(r.id), label: r.name })),
        ]}
      />
      <MemberPicker
        users={people.users}
        members={form.values.members}
        onChange={(ids) => form.set('members', ids)}
      />
      {form.errorAt('users') && <p class="field-error">{form.errorAt('users')}</p>}
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {group ? 'Save group' : 'Create group'}
        </Button>
        <Link href="/admin/groups" class="button button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}

function DeleteGroup({ group }: { group: Group }) {
  return (
    <DeleteButton
      confirm={{
        title: `Delete the group “${group.name}”?`,
        body: <p>Its members lose the roles it gave them, in every project.</p>,
        confirmLabel: 'Delete group',
      }}
      onDelete={async () => {
        await api.del(`/api/admin/groups/${group.id}`);
        navigate('/admin/groups');
      }}
    />
  );
}

/** A group (or a new one): its name, root role and members. */
export function GroupPage({ params }: RouteProps) {
  const isNew = params.groupId === undefined;
  const group = useResource<Group>(isNew ? null : `/api/admin/groups/${encodeURIComponent(params.groupId!)}`);
  const people = useResource<UserList>('/api/admin/user-admin');
  const title = isNew ? 'New group' : (group.data?.name ?? 'Group');
  return (
    <Loaded resources={[isNew ? null : group, people]} header={<PageHeader title={title} trail={TRAIL} />}>
      {(read, people) => {
        const current = read ?? null;
        return (
          <>
            <PageHeader title={title} trail={TRAIL} actions={current && <DeleteGroup group={current} />} />
            <GroupForm group={current} people={people} />
          </>
        );
      }}
    </Loaded>
  );
}
