import type { StrategyType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';
import { useSession } from '../../session';
import { strategyTypeHref } from '../../shared/links';

/** The strategy types flags can use: the built-in ones and those defined here for custom SDK code. */
export function StrategyTypesPage(_props: RouteProps) {
  const types = useResource<{ strategies: StrategyType[] }>('/api/admin/strategies');
  const { isAdmin } = useSession();
  return (
    <>
      <PageHeader
        title="Strategies"
        actions={
          isAdmin && (
            <Link href="/create-strategy" class="button button-primary">
              New custom strategy
            </Link>
          )
        }
      >
        <p class="muted">
          How a flag decides who gets it. A custom strategy is evaluated by code registered in the SDK; an SDK
          without it treats the strategy as off.
        </p>
      </PageHeader>
      <Loaded resources={[types]}>
        {({ strategies }) => (
          <table class="table">
            <caption class="visually-hidden">Strategies</caption>
            <thead>
              <tr>
                <th scope="col">Strategy</th>
                <th scope="col">Kind</th>
                <th scope="col">Parameters</th>
              </tr>
            </thead>
            <tbody>
              {strategies.map((t) => (
                <tr key={t.name}>
                  <th scope="row" data-label="Strategy">
                    <Link href={strategyTypeHref(t.name)}>{t.displayName || t.name}</Link>{' '}
                    {t.displayName && t.displayName !== t.name && <code>{t.name}</code>}{' '}
                    {t.deprecated && <span class="badge badge-warning">Deprecated</span>}
                    {t.description && <p class="muted flag-description">{t.description}</p>}
                  </th>
                  <td data-label="Kind">{t.editable === false ? 'Built in' : 'Custom'}</td>
                  <td data-label="Parameters">
                    {t.parameters.length === 0 ? 'None' : t.parameters.map((p) => p.name).join(', ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </>
  );
}
