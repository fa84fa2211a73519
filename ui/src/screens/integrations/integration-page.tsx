import { useResource } from '../../api/use-resource';
import { Empty, Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { IntegrationDeliveries } from './integration-deliveries';
import { IntegrationForm } from './integration-form';
import type { IntegrationList } from './integration-types';

/** A new integration of a provider (`/admin/integrations/new?provider=webhook`), or one to change. */
export function IntegrationPage({ params, query }: RouteProps) {
  const list = useResource<IntegrationList>('/api/admin/addons');
  const id = params.integrationId === 'new' ? null : Number(params.integrationId);
  const trail = [{ href: '/admin/integrations', label: 'Integrations' }];
  const header = <PageHeader title={id === null ? 'New integration' : 'Integration'} trail={trail} />;
  return (
    <Loaded resources={[list]} header={header}>
      {({ addons, providers }) => {
        const stored = id === null ? undefined : addons.find((a) => a.id === id);
        const provider = providers.find(
          (p) => p.name === (stored?.provider ?? query.get('provider') ?? 'webhook'),
        );
        if ((id !== null && !stored) || !provider) {
          return (
            <>
              {header}
              <Empty>There is no such integration.</Empty>
            </>
          );
        }
        return (
          <>
            <PageHeader
              title={
                stored
                  ? stored.description || `${provider.displayName} ${stored.id}`
                  : `New ${provider.displayName}`
              }
              trail={trail}
            >
              <p class="muted">{provider.description}</p>
            </PageHeader>
            <IntegrationForm provider={provider} stored={stored} />
            {stored && <IntegrationDeliveries id={stored.id} />}
          </>
        );
      }}
    </Loaded>
  );
}
