import { featurePath, seg } from '../../api/client';
import type { ContextField, Segment, Strategy, StrategyType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { flagHref } from '../../shared/links';
import { useProjectTrail } from '../projects/project-trail';
import { StrategyForm } from './strategy-form';

/** Add a strategy to a flag in an environment, or edit one: every field of it. */
export function StrategyPage({ params, query }: RouteProps) {
  const project = params.projectId!;
  const projectTrail = useProjectTrail(project);
  const feature = params.featureName!;
  const strategyId = params.strategyId;
  const environment = query.get('environment') ?? '';
  const types = useResource<{ strategies: StrategyType[] }>('/api/admin/strategies');
  const contextFields = useResource<ContextField[]>('/api/admin/context');
  const segments = useResource<{ segments: Segment[] }>('/api/admin/segments');
  const strategy = useResource<Strategy>(
    strategyId
      ? `${featurePath(project, feature)}/environments/${seg(environment)}/strategies/${seg(strategyId)}`
      : null,
  );
  const title = `${strategyId ? 'Edit strategy' : 'Add strategy'} in ${environment}`;
  const header = (
    <PageHeader
      title={title}
      trail={[...projectTrail, { href: flagHref(project, feature), label: feature }]}
    />
  );
  return (
    <Loaded resources={[types, contextFields, segments, strategyId ? strategy : null]} header={header}>
      {({ strategies }, contextFields, { segments }, current) => (
        <>
          {header}
          <StrategyForm
            project={project}
            feature={feature}
            environment={environment}
            strategy={current ?? null}
            types={strategies}
            contextFields={contextFields}
            segments={segments}
          />
        </>
      )}
    </Loaded>
  );
}
