import type { Role } from '../../api/people';
import { useResource } from '../../api/use-resource';
import { Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';
import { useCan } from '../../session';
import { ROLE_KINDS } from '../../shared/role-kinds';

/** Root roles (what a user may do everywhere) and project roles (what they may do in a project). */
export function RolesPage(_props: RouteProps) {
  const roles = useResource<{ roles: Role[] }>('/api/admin/roles');
  const canCreate = useCan('CREATE_ROLE');
  return (
    <>
      <PageHeader
        title="Roles"
        actions={
          canCreate && (
            <Link href="/create-role" class="button button-primary">
              New role
            </Link>
          )
        }
      />
      <Loaded resources={[roles]}>
        {({ roles: list }) => (
          <table class="table">
            <caption class="visually-hidden">Roles</caption>
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">Kind</th>
              </tr>
            </thead>
            <tbody>
              {list.map((r) => (
                <tr key={r.id}>
                  <th scope="row" data-label="Role">
                    <Link href={`/admin/roles/${r.id}`}>{r.name}</Link>
                    {r.description && <p class="muted flag-description">{r.description}</p>}
                  </th>
                  <td data-label="Kind">{ROLE_KINDS[r.type]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </>
  );
}
