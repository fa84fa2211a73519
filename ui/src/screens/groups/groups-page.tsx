import type { Group } from '../../api/people';
import { useResource } from '../../api/use-resource';
import { Empty, Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';

/** Every group: people who hold roles together, in projects and (with a root role) everywhere. */
export function GroupsPage(_props: RouteProps) {
  const groups = useResource<{ groups: Group[] }>('/api/admin/groups');
  return (
    <>
      <PageHeader
        title="Groups"
        actions={
          <Link href="/create-group" class="button button-primary">
            New group
          </Link>
        }
      />
      <Loaded resources={[groups]}>
        {({ groups: list }) =>
          list.length === 0 ? (
            <Empty>There are no groups yet.</Empty>
          ) : (
            <table class="table">
              <caption class="visually-hidden">Groups</caption>
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col">Members</th>
                </tr>
              </thead>
              <tbody>
                {list.map((g) => (
                  <tr key={g.id}>
                    <th scope="row" data-label="Group">
                      <Link href={`/admin/groups/${g.id}`}>{g.name}</Link>
                      {g.description && <p class="muted flag-description">{g.description}</p>}
                    </th>
                    <td data-label="Members">{g.userCount ?? g.users?.length ?? 0}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </>
  );
}
