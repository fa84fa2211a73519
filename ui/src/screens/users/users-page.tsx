import { useState } from 'preact/hooks';
import type { UserList } from '../../api/people';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useSession } from '../../session';
import { CreateUserForm } from './create-user-form';
import { UserRow } from './user-row';

/** Every user with their root role; create, change, reset and delete them. */
export function UsersPage(_props: RouteProps) {
  const users = useResource<UserList>('/api/admin/user-admin');
  const { me } = useSession();
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Users"
        actions={
          !creating && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              New user
            </Button>
          )
        }
      />
      <Loaded resources={[users]}>
        {({ users: list, rootRoles }) => (
          <>
            {creating && (
              <CreateUserForm
                rootRoles={rootRoles}
                onCreated={() => {
                  setCreating(false);
                  users.reload();
                }}
                onCancel={() => setCreating(false)}
              />
            )}
            <table class="table">
              <caption class="visually-hidden">Users</caption>
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Root role</th>
                  <th scope="col">Last seen</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((user) => (
                  <UserRow
                    key={user.id}
                    user={user}
                    rootRoles={rootRoles}
                    isSelf={user.id === me.user.id}
                    onChanged={users.reload}
                  />
                ))}
              </tbody>
            </table>
          </>
        )}
      </Loaded>
    </>
  );
}
