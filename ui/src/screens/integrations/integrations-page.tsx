import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { DeleteButton } from '../../components/delete-button';
import { Empty, Loaded, Problem } from '../../components/status';
import { Switch } from '../../components/switch';
import { useAction } from '../../forms/use-action';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';
import { useCan } from '../../session';
import type { Integration, IntegrationList } from './integration-types';

/** The integrations that send events out (webhooks): each switched, changed or deleted here. */
export function IntegrationsPage(_props: RouteProps) {
  const list = useResource<IntegrationList>('/api/admin/addons');
  const canCreate = useCan('CREATE_ADDON');
  const canUpdate = useCan('UPDATE_ADDON');
  const canDelete = useCan('DELETE_ADDON');
  const action = useAction(list.reload);
  const { run } = action;
  // The whole integration goes back: a PUT replaces it (sensitive parameters come as `*****` and are kept).
  const toggle = (a: Integration) =>
    run(() => api.put(`/api/admin/addons/${a.id}`, { ...a, enabled: !a.enabled }));
  return (
    <>
      <PageHeader
        title="Integrations"
        actions={
          canCreate && (
            <Link href="/admin/integrations/new?provider=webhook" class="button button-primary">
              New webhook
            </Link>
          )
        }
      >
        <p class="muted">Events sent out as they happen: a webhook posts each chosen event to an address.</p>
      </PageHeader>
      <Problem message={action.problem} />
      <Loaded resources={[list]}>
        {({ addons, providers }) =>
          addons.length === 0 ? (
            <Empty>No integrations yet.</Empty>
          ) : (
            <ul class="card-grid">
              {addons.map((a) => {
                const name =
                  a.description ||
                  `${providers.find((p) => p.name === a.provider)?.displayName ?? a.provider} ${a.id}`;
                return (
                  <li key={a.id} class="card">
                    <h2>
                      <Link href={`/admin/integrations/${a.id}`}>{name}</Link>
                    </h2>
                    <p class="muted">
                      {a.provider}: {a.events.length} {a.events.length === 1 ? 'event' : 'events'}
                    </p>
                    <div class="actions">
                      {canUpdate ? (
                        <Switch
                          checked={a.enabled}
                          label={`${name} enabled`}
                          onToggle={() => toggle(a)}
                          busy={action.busy}
                        />
                      ) : (
                        <span class={`state state-${a.enabled ? 'on' : 'off'}`}>
                          {a.enabled ? 'Enabled' : 'Disabled'}
                        </span>
                      )}
                      {canDelete && (
                        <DeleteButton
                          confirm={{
                            title: `Delete the integration “${name}”?`,
                            body: <p>Its events are no longer sent, and its delivery log goes with it.</p>,
                            confirmLabel: 'Delete integration',
                          }}
                          onDelete={() => api.del(`/api/admin/addons/${a.id}`)}
                          action={{ run }}
                          aria-label={`Delete ${name}`}
                        />
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}
