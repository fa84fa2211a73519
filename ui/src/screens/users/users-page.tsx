import { useState } from 'preact/hooks';
import type { UserList } from '../../api/people';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { SecretReveal } from '../../components/secret-reveal';
import { Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useSession } from '../../session';
import { type CreatedUser, CreateUserForm } from './create-user-form';
import { UserRow } from './user-row';

/** Every user with their root role; create, change, reset and delete them. */
export function UsersPage(_props: RouteProps) {
  const users = useResource<UserList>('/api/admin/user-admin');
  const { me } = useSession();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedUser>();
  return (
    <>
      <PageHeader
        title="Users"
        actions={
          !creating && (
            <Button
              variant="primary"
              onClick={() => {
                setCreating(true);
                setCreated(undefined);
              }}
            >
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
                onCreated={(user) => {
                  setCreating(false);
                  setCreated(user);
                  users.reload();
                }}
                onCancel={() => setCreating(false)}
              />
            )}
            {created?.resetLink && (
              <SecretReveal
                label={`${created.name} has no password yet: give them this link to set one (valid 24 hours).`}
                secret={created.resetLink}
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
