import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Loaded, Problem } from '../../components/status';
import { useAction } from '../../forms/use-action';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { CreateEnvironmentForm } from './create-environment-form';
import { EnvironmentRow } from './environment-row';
import type { AdminEnvironment } from './environment-types';

/** The instance's environments, in the order every list shows them. */
export function EnvironmentsPage(_props: RouteProps) {
  const environments = useResource<{ environments: AdminEnvironment[] }>('/api/admin/environments');
  const action = useAction(environments.reload);
  return (
    <>
      <PageHeader title="Environments">
        <p class="muted">
          Each project has some of them; a flag is switched and given strategies in each. SDKs read one
          environment, named by their API token.
        </p>
      </PageHeader>
      <Problem message={action.problem} />
      <Loaded resources={[environments]}>
        {({ environments: list }) => {
          const move = (index: number, by: number) => {
            const order = [...list];
            const [moved] = order.splice(index, 1);
            order.splice(index + by, 0, moved!);
            return action.run(() =>
              api.put(
                '/api/admin/environments/sort-order',
                Object.fromEntries(order.map((e, i) => [e.name, i + 1])),
              ),
            );
          };
          return (
            <>
              <table class="table">
                <caption class="visually-hidden">Environments, in order</caption>
                <thead>
                  <tr>
                    <th scope="col">Environment</th>
                    <th scope="col">Type</th>
                    <th scope="col">Used by</th>
                    <th scope="col">Enabled</th>
                    <th scope="col">Order</th>
                    <th scope="col">
                      <span class="visually-hidden">Delete</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((e, i) => (
                    <EnvironmentRow
                      key={e.name}
                      environment={e}
                      position={i}
                      count={list.length}
                      onMove={(by) => move(i, by)}
                      action={action}
                    />
                  ))}
                </tbody>
              </table>
              <CreateEnvironmentForm
                last={Math.max(0, ...list.map((e) => e.sortOrder))}
                onCreated={environments.reload}
              />
            </>
          );
        }}
      </Loaded>
    </>
  );
}
