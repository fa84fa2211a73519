import { seg } from '../../api/client';
import type { MetricsBucket } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { Empty, Loaded } from '../../components/status';
import { formatDateTime } from '../../format';
import type { FlagTabProps } from './flag-tab';
import { UsageChart } from './usage-chart';
import { type HourlyUsage, sum, usageByEnvironment } from './usage-data';

function UsageTable({ usage }: { usage: HourlyUsage }) {
  const rows = usage.hours.map((hour, i) => ({ hour, yes: usage.yes[i]!, no: usage.no[i]! }));
  const counted = rows.filter((r) => r.yes + r.no > 0);
  return (
    <table class="table usage-table">
      <caption>Evaluations per hour in {usage.environment} (hours without any are left out)</caption>
      <thead>
        <tr>
          <th scope="col">Hour starting</th>
          <th scope="col" class="number">
            Yes
          </th>
          <th scope="col" class="number">
            No
          </th>
        </tr>
      </thead>
      <tbody>
        {counted.map((r) => (
          <tr key={r.hour}>
            <th scope="row" data-label="Hour starting">
              {formatDateTime(new Date(r.hour * 1000).toISOString())}
            </th>
            <td data-label="Yes" class="number">
              {r.yes.toLocaleString('en')}
            </td>
            <td data-label="No" class="number">
              {r.no.toLocaleString('en')}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td data-label="Yes" class="number">
            {sum(usage.yes).toLocaleString('en')}
          </td>
          <td data-label="No" class="number">
            {sum(usage.no).toLocaleString('en')}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

function EnvironmentUsage({ environment, usage }: { environment: string; usage: HourlyUsage | undefined }) {
  return (
    <section class="card usage" aria-labelledby={`usage-${environment}`}>
      <h3 id={`usage-${environment}`}>{environment}</h3>
      {!usage ? (
        <Empty>No SDK reported evaluating this flag here in the last 48 hours.</Empty>
      ) : (
        <>
          <p class="muted">
            {sum(usage.yes).toLocaleString('en')} yes, {sum(usage.no).toLocaleString('en')} no, from{' '}
            {usage.applications.join(', ')}.
          </p>
          <UsageChart usage={usage} />
          <UsageTable usage={usage} />
        </>
      )}
    </section>
  );
}

/** How often SDKs evaluated the flag in the last 48 hours (E20), per environment: a chart and its numbers. */
export function UsageTab({ feature }: FlagTabProps) {
  const metrics = useResource<{ data: MetricsBucket[] }>(
    `/api/admin/client-metrics/features/${seg(feature.name)}/raw`,
  );
  return (
    <>
      <div class="actions">
        <Button onClick={() => metrics.reload()} busy={metrics.loading}>
          Refresh
        </Button>
      </div>
      <Loaded resources={[metrics]}>
        {({ data }) => {
          const usage = usageByEnvironment(data);
          const names = [...new Set([...feature.environments.map((e) => e.name), ...usage.keys()])];
          return (
            <div class="environment-panels">
              {names.map((name) => (
                <EnvironmentUsage key={name} environment={name} usage={usage.get(name)} />
              ))}
            </div>
          );
        }}
      </Loaded>
    </>
  );
}
