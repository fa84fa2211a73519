import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useSession } from '../../session';
import { GLOBAL_CONFIG_PATH } from './impact-api';
import { ImpactCharts } from './impact-charts';

/** The instance's charts of the metrics SDKs send (counters, gauges, histograms), for Admins. */
export function ImpactMetricsPage(_props: RouteProps) {
  const { isAdmin } = useSession();
  return (
    <>
      <PageHeader title="Impact metrics">
        <p class="muted">
          Numbers your applications count and send with their usage metrics, charted per minute: watch errors,
          latency or sales as a flag rolls out.
        </p>
      </PageHeader>
      <ImpactCharts
        configPath={GLOBAL_CONFIG_PATH}
        canEdit={isAdmin}
        emptyText="There are no charts yet: add one to follow a metric your applications send."
      />
    </>
  );
}
