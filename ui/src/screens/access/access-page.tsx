import { api, seg } from '../../api/client';
import type { Group } from '../../api/people';
import { displayName, type Role, type UserList } from '../../api/people';
import { useResource } from '../../api/use-resource';
import { DeleteButton } from '../../components/delete-button';
import { CheckboxField } from '../../components/fields';
import { Empty, Loaded, Problem } from '../../components/status';
import { useAction } from '../../forms/use-action';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useProjectTrail } from '../projects/project-trail';
import { GrantForm } from './grant-form';

interface Holder {
  kind: 'users' | 'groups';
  id: number;
  name: string;
  roles: number[];
}

interface ProjectAccess {
  roles: Role[];
  users: {
    id: number;
    username: string | null;
    name: string | null;
    email: string | null;
    roles: number[];
  }[];
  groups: { id: number; name: string; roles: number[] }[];
}

function HolderRow({
  project,
  holder,
  roles,
  onChanged,
}: {
  project: string;
  holder: Holder;
  roles: Role[];
  onChanged(): void;
}) {
  const action = useAction();
  const { run, busy, problem } = action;
  const path = `/api/admin/projects/${seg(project)}/${holder.kind}/${holder.id}/roles`;
  const setRoles = (next: number[]) =>
    run(async () => {
      await api.put(path, { roles: next });
      onChanged();
    });
  return (
    <tr>
      <th scope="row" data-label={holder.kind === 'users' ? 'User' : 'Group'}>
        {holder.kind === 'groups' ? `Group: ${holder.name}` : holder.name}
        <Problem message={problem} />
      </th>
      <td data-label="Roles">
        <div class="row">
          {roles.map((r) => (
            <CheckboxField
              key={r.id}
              label={r.name}
              checked={holder.roles.includes(r.id)}
              disabled={busy || (holder.roles.length === 1 && holder.roles[0] === r.id)}
              onValue={(on) =>
                setRoles(on ? [...holder.roles, r.id] : holder.roles.filter((id) => id !== r.id))
              }
            />
          ))}
        </div>
      </td>
      <td data-label="Actions">
        <DeleteButton
          confirm={{
            title: `Remove ${holder.name} from ${project}?`,
            body: (
              <p>
                They lose every role they hold in this project
                {holder.kind === 'groups' && ' through this group'}.
              </p>
            ),
            confirmLabel: 'Remove access',
          }}
          onDelete={async () => {
            await api.del(path);
            onChanged();
          }}
          action={action}
          aria-label={`Remove ${holder.name}`}
        >
          Remove
        </DeleteButton>
      </td>
    </tr>
  );
}

/** Who holds which roles in a project; grant, change and remove them. */
export function AccessPage({ params }: RouteProps) {
  const project = params.projectId!;
  const trail = useProjectTrail(project);
  const access = useResource<ProjectAccess>(`/api/admin/projects/${seg(project)}/access`);
  const people = useResource<UserList>('/api/admin/user-admin');
  const groups = useResource<{ groups: Group[] }>('/api/admin/groups');
  return (
    <>
      <PageHeader title={`Access to ${project}`} trail={trail} />
      <Loaded resources={[access]}>
        {(data) => {
          const holders: Holder[] = [
            ...data.users.map((u) => ({
              kind: 'users' as const,
              id: u.id,
              name: displayName(u),
              roles: u.roles,
            })),
            ...data.groups.map((g) => ({ kind: 'groups' as const, id: g.id, name: g.name, roles: g.roles })),
          ];
          return (
            <>
              {people.data && (
                <GrantForm
                  project={project}
                  roles={data.roles}
                  users={people.data.users}
                  groups={groups.data?.groups ?? []}
                  onGranted={access.reload}
                />
              )}
              {holders.length === 0 ? (
                <Empty>Nobody holds a role in this project yet; root roles still apply.</Empty>
              ) : (
                <table class="table">
                  <caption class="visually-hidden">Users and groups with roles in the project</caption>
                  <thead>
                    <tr>
                      <th scope="col">User or group</th>
                      <th scope="col">Roles</th>
                      <th scope="col">
                        <span class="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {holders.map((h) => (
                      <HolderRow
                        key={`${h.kind}:${h.id}`}
                        project={project}
                        holder={h}
                        roles={data.roles}
                        onChanged={access.reload}
                      />
                    ))}
                  </tbody>
                </table>
              )}
            </>
          );
        }}
      </Loaded>
    </>
  );
}
