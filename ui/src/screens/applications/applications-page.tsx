import { useResource } from '../../api/use-resource';
import { Empty, Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';

interface ApplicationSummary {
  appName: string;
  description: string | null;
  url: string | null;
  strategies: string[];
}

const applicationHref = (name: string) => `/applications/${encodeURIComponent(name)}`;

/** Every application an SDK registered or someone created. */
export function ApplicationsPage(_props: RouteProps) {
  const applications = useResource<{ applications: ApplicationSummary[] }>('/api/admin/metrics/applications');
  return (
    <>
      <PageHeader title="Applications">
        <p class="muted">The applications whose SDKs have connected to Flagpole.</p>
      </PageHeader>
      <Loaded resources={[applications]}>
        {({ applications: list }) =>
          list.length === 0 ? (
            <Empty>No application has connected yet.</Empty>
          ) : (
            <table class="table">
              <caption class="visually-hidden">Applications</caption>
              <thead>
                <tr>
                  <th scope="col">Application</th>
                  <th scope="col">Strategies it knows</th>
                </tr>
              </thead>
              <tbody>
                {list.map((a) => (
                  <tr key={a.appName}>
                    <th scope="row" data-label="Application">
                      <Link href={applicationHref(a.appName)}>{a.appName}</Link>
                      {a.description && <p class="muted flag-description">{a.description}</p>}
                    </th>
                    <td data-label="Strategies">{a.strategies.join(', ') || '—'}</td>
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
