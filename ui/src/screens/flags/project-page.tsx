import { useMemo, useState } from 'preact/hooks';
import { seg } from '../../api/client';
import type { Environment, FeatureSummary, FeatureType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Pager } from '../../components/pager';
import { Empty, ErrorMessage, Loaded, Problem } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import { Link, navigate, type RouteProps } from '../../router';
import { useCan } from '../../session';
import { ArchivedTable } from './archived-table';
import { applyFilter, type FlagFilter, FlagFilters, filterFromQuery, filterToQuery } from './flag-filters';
import { FlagTable } from './flag-table';

const PAGE_SIZE = 50;

interface ProjectDetails {
  id: string;
  name: string;
  description: string | null;
}

type FlagList = { features: FeatureSummary[] };

function switched(list: FlagList, flag: string, environment: string, enabled: boolean): FlagList {
  return {
    features: list.features.map((f) =>
      f.name !== flag
        ? f
        : {
            ...f,
            environments: f.environments.map((e) =>
              e.name === environment ? { ...e, enabled, hasStrategies: e.hasStrategies || enabled } : e,
            ),
          },
    ),
  };
}

/** A project: its flags, searched and filtered, each environment's switch in the row; its archive. */
export function ProjectPage({ params, query }: RouteProps) {
  const project = params.projectId!;
  const details = useResource<ProjectDetails>(`/api/admin/projects/${seg(project)}`);
  const environments = useResource<{ environments: (Environment & { visible: boolean })[] }>(
    `/api/admin/environments/project/${seg(project)}`,
  );
  const types = useResource<{ types: FeatureType[] }>('/api/admin/feature-types');
  const queryText = query.toString();
  const { filter, page } = useMemo(() => filterFromQuery(new URLSearchParams(queryText)), [queryText]);
  const flags = useResource<FlagList>(
    filter.archived
      ? `/api/admin/archive/features/${seg(project)}`
      : `/api/admin/projects/${seg(project)}/features`,
  );
  const [problem, setProblem] = useState<string>();
  const canCreate = useCan('CREATE_FEATURE', { project });
  const canGrant = useCan('UPDATE_PROJECT', { project });
  const seesTokens = useCan('READ_PROJECT_API_TOKEN', { project });

  const shown = useMemo(() => applyFilter(flags.data?.features ?? [], filter), [flags.data, filter]);
  // A page past the end (an old link, a list that got shorter) shows the last one.
  const at = Math.min(page, Math.max(0, Math.ceil(shown.length / PAGE_SIZE) - 1));
  const pageOfFlags = shown.slice(at * PAGE_SIZE, (at + 1) * PAGE_SIZE);
  const projectEnvironments = (environments.data?.environments ?? []).filter((e) => e.visible);
  const base = `/projects/${encodeURIComponent(project)}`;
  const show = (next: FlagFilter, nextPage = 0) =>
    navigate(base + filterToQuery(next, nextPage), { replace: true });

  if (details.error) return <ErrorMessage error={details.error} />;
  return (
    <>
      <PageHeader
        title={details.data?.name ?? project}
        trail={[{ href: '/projects', label: 'Projects' }]}
        actions={
          <>
            {canGrant && (
              <Link href={`${base}/access`} class="button button-secondary">
                Access
              </Link>
            )}
            {seesTokens && (
              <Link href={`${base}/api-tokens`} class="button button-secondary">
                API tokens
              </Link>
            )}
            {canCreate && (
              <Link href={`${base}/create-flag`} class="button button-primary">
                New flag
              </Link>
            )}
          </>
        }
      >
        {details.data?.description && <p class="muted">{details.data.description}</p>}
      </PageHeader>
      <FlagFilters
        filter={filter}
        onFilter={(next) => show(next)}
        flags={flags.data?.features ?? []}
        types={types.data?.types ?? []}
      />
      <Problem message={problem} />
      <Loaded resources={[flags]} label="Loading flags…">
        {({ features }) =>
          shown.length === 0 ? (
            <Empty>
              {features.length === 0
                ? filter.archived
                  ? 'No archived flags in this project.'
                  : 'This project has no flags yet.'
                : 'No flag matches the filter.'}
            </Empty>
          ) : (
            <>
              {filter.archived ? (
                <ArchivedTable
                  project={project}
                  flags={pageOfFlags}
                  onGone={(name) =>
                    flags.mutate((list) => ({ features: list.features.filter((f) => f.name !== name) }))
                  }
                  onError={setProblem}
                />
              ) : (
                <FlagTable
                  project={project}
                  flags={pageOfFlags}
                  environments={projectEnvironments}
                  onSwitched={(flag, env, enabled) => {
                    setProblem(undefined);
                    flags.mutate((list) => switched(list, flag, env, enabled));
                  }}
                  onError={setProblem}
                />
              )}
              <Pager
                page={at}
                pageSize={PAGE_SIZE}
                total={shown.length}
                onPage={(p) => show(filter, p)}
                noun="flags"
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}
