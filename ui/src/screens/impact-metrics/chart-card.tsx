import { useEffect, useId, useMemo } from 'preact/hooks';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { Empty, ErrorMessage, Loading } from '../../components/status';
import { chartData } from './chart-series';
import {
  type ChartConfig,
  type ChartDraft,
  type MetricQueryResult,
  modeLabel,
  queryPath,
  rangeLabel,
  type YAxisMin,
} from './impact-api';
import { ImpactChart } from './impact-chart';

/** SDKs send their metrics every few seconds to a minute: a chart left open follows them at that pace. */
const REFRESH_MS = 60_000;

/** The labels a chart keeps to, in words: `appName: shop or web`. */
export function filterSummary(selectors: ChartDraft['labelSelectors']): string {
  const parts = Object.entries(selectors)
    .filter(([, values]) => values.length > 0)
    .map(([name, values]) => (values.includes('*') ? `each ${name}` : `${name}: ${values.join(' or ')}`));
  return parts.length > 0 ? parts.join('; ') : 'all series';
}

/** A chart's data, read again now and then while it is shown; what was drawn stays while it is. */
export function useChartQuery(draft: ChartDraft | null, mode: 'edit' | 'display', name: string) {
  const result = useResource<MetricQueryResult>(draft && queryPath(draft, mode), { keep: true });
  const { reload } = result;
  useEffect(() => {
    const timer = setInterval(() => {
      // A tab in the background has no one to draw for.
      if (document.visibilityState === 'visible') reload();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const data = useMemo(() => result.data && chartData(result.data, name), [result.data, name]);
  return { result, data };
}

/** The chart of a query, or why there is none yet. */
export function ChartView({
  query,
  yAxisMin,
}: {
  query: ReturnType<typeof useChartQuery>;
  yAxisMin: YAxisMin;
}) {
  const { error } = query.result;
  // The server knows a metric from its first report: a chart may be saved before that.
  if (error?.status === 404) return <Empty>No SDK has sent this metric yet.</Empty>;
  if (error) return <ErrorMessage error={error} />;
  if (!query.data) return <Loading label="Loading the chart…" />;
  return <ImpactChart data={query.data} yAxisMin={yAxisMin} />;
}

interface Props {
  config: ChartConfig;
  canEdit: boolean;
  onEdit(): void;
  onDelete(): Promise<unknown>;
}

/** A saved chart with what it shows in words, and its edit and delete buttons for those who may. */
export function ChartCard({ config, canEdit, onEdit, onDelete }: Props) {
  const id = useId();
  const title = config.title || config.displayName || config.metricName;
  const locked = config.mode === 'read';
  const query = useChartQuery(config, 'display', config.displayName || config.metricName);
  return (
    <li>
      <section class="card impact-card" aria-labelledby={id}>
        <div class="impact-card-head">
          <h2 id={id}>{title}</h2>
          {canEdit && !locked && (
            <div class="actions">
              <Button onClick={onEdit} aria-label={`Edit ${title}`}>
                Edit
              </Button>
              <DeleteButton
                aria-label={`Delete ${title}`}
                confirm={{
                  title: 'Delete this chart?',
                  body: <p>The chart “{title}” is deleted; the metric and its values stay.</p>,
                  confirmLabel: 'Delete chart',
                }}
                onDelete={onDelete}
              />
            </div>
          )}
        </div>
        <p class="muted impact-card-meta">
          {config.metricName} · {modeLabel(config.aggregationMode)} · {rangeLabel(config.timeRange)} ·{' '}
          {filterSummary(config.labelSelectors)}
        </p>
        {locked && <p class="badge">Used by a safeguard: it cannot be changed or deleted</p>}
        <ChartView query={query} yAxisMin={config.yAxisMin} />
      </section>
    </li>
  );
}
