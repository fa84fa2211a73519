import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { Empty, Loaded } from '../../components/status';
import { ChartCard } from './chart-card';
import { ChartForm } from './chart-form';
import { type ChartConfig, type ChartDraft, METADATA_PATH, type MetricInfo } from './impact-api';
import { SdkHelp } from './sdk-help';

interface Props {
  /** Where the charts are read and saved: the global ones or a flag's. */
  configPath: string;
  /** Whether the user may add, change and delete them (the server decides again). */
  canEdit: boolean;
  /** What an empty list says to someone who may add a chart. */
  emptyText: string;
}

/** The saved charts as a grid, each drawn from its query, with a form to add or change one. */
export function ImpactCharts({ configPath, canEdit, emptyText }: Props) {
  const configs = useResource<{ configs: ChartConfig[] }>(configPath);
  // Only a form needs the metrics: someone who cannot add a chart is not refused them.
  const metadata = useResource<{ metrics: MetricInfo[] }>(canEdit ? METADATA_PATH : null);
  /** The id of the chart being changed, 'new' for a new one. */
  const [editing, setEditing] = useState<string | null>(null);
  const save = (body: ChartDraft & { id?: string }) => api.post<ChartConfig>(configPath, body);
  const saved = () => {
    setEditing(null);
    configs.reload();
  };
  const form = (config: ChartConfig | null, metrics: MetricInfo[]) => (
    <ChartForm
      metrics={metrics}
      config={config}
      save={save}
      onSaved={saved}
      onCancel={() => setEditing(null)}
    />
  );
  return (
    <Loaded resources={[configs, canEdit ? metadata : null]} label="Loading the charts…">
      {({ configs: list }, meta) => {
        const metrics = meta?.metrics ?? [];
        const noMetrics = canEdit && metrics.length === 0;
        return (
          <div class="impact-charts">
            {canEdit && !noMetrics && editing === null && (
              <div class="actions">
                <Button variant="primary" onClick={() => setEditing('new')}>
                  Add chart
                </Button>
              </div>
            )}
            {editing === 'new' && form(null, metrics)}
            {list.length === 0 &&
              editing === null &&
              (noMetrics ? <SdkHelp /> : <Empty>{canEdit ? emptyText : 'There are no charts.'}</Empty>)}
            {list.length > 0 && (
              <ul class="impact-grid">
                {list.map((config) =>
                  editing === config.id ? (
                    <li key={config.id} class="impact-grid-wide">
                      {form(config, metrics)}
                    </li>
                  ) : (
                    <ChartCard
                      key={config.id}
                      config={config}
                      canEdit={canEdit}
                      onEdit={() => setEditing(config.id)}
                      onDelete={async () => {
                        await api.del(`${configPath}/${encodeURIComponent(config.id)}`);
                        await configs.reload();
                      }}
                    />
                  ),
                )}
              </ul>
            )}
          </div>
        );
      }}
    </Loaded>
  );
}
