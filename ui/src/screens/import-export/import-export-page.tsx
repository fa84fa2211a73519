import type { Environment, Project } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { FeaturesTransfer } from './features-transfer';
import { StateTransfer } from './state-transfer';

/** Configuration in and out: the whole state, or the flags of one project. */
export function ImportExportPage(_props: RouteProps) {
  const projects = useResource<{ projects: Project[] }>('/api/admin/projects');
  const environments = useResource<{ environments: Environment[] }>('/api/admin/environments');
  return (
    <>
      <PageHeader title="Import and export" />
      <div class="environment-panels">
        <StateTransfer />
        <Loaded resources={[projects, environments]}>
          {({ projects }, { environments }) => (
            <FeaturesTransfer projects={projects} environments={environments} />
          )}
        </Loaded>
      </div>
    </>
  );
}
