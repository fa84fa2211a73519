import { useCan } from '../../session';
import type { FlagTabProps } from '../flag/flag-tab';
import { flagConfigPath } from './impact-api';
import { ImpactCharts } from './impact-charts';

/** The flag page's charts: the metrics to watch while this flag changes. */
export function FlagImpactTab({ project, feature }: FlagTabProps) {
  const canEdit = useCan('UPDATE_FEATURE', { project });
  return (
    <ImpactCharts
      configPath={flagConfigPath(project, feature.name)}
      canEdit={canEdit}
      emptyText="This flag has no charts yet: add one to watch a metric while the flag rolls out."
    />
  );
}
