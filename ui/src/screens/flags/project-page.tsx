import { useMemo } from 'preact/hooks';
import { seg } from '../../api/client';
import type { Environment } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { DraftBanner } from '../../change-requests/draft-banner';
import { useDraftEnvironments } from '../../change-requests/drafts';
import { ErrorMessage } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';
import { useCan } from '../../session';
import { changeRequestHref } from '../../shared/links';
import { FlagList } from './flag-list';
import { queryFromUrl } from './flag-query';

interface ProjectDetails {
  id: string;
  name: string;
  description: string | null;
}

/** A project: its flags, searched, sorted and paged by the server, each environment's switch in the row. */
export function ProjectPage({ params, query }: RouteProps) {
  const project = params.projectId!;
  const details = useResource<ProjectDetails>(`/api/admin/projects/${seg(project)}`);
  const environments = useResource<{ environments: (Environment & { visible: boolean })[] }>(
    `/api/admin/environments/project/${seg(project)}`,
  );
  const queryText = query.toString();
  const flagQuery = useMemo(() => queryFromUrl(new URLSearchParams(queryText)), [queryText]);
  const canCreate = useCan('CREATE_FEATURE', { project });
  const canGrant = useCan('UPDATE_PROJECT', { project });
  const seesTokens = useCan('READ_PROJECT_API_TOKEN', { project });
  const canDelete = useCan('DELETE_PROJECT', { project });
  const reviewed = (useDraftEnvironments(project)?.size ?? 0) > 0;
  const projectEnvironments = (environments.data?.environments ?? []).filter((e) => e.visible);
  const base = `/projects/${encodeURIComponent(project)}`;

  if (details.error) return <ErrorMessage error={details.error} />;
  return (
    <>
      <PageHeader
        title={details.data?.name ?? project}
        trail={[{ href: '/projects', label: 'Projects' }]}
        actions={
          <>
            {reviewed && (
              <Link href={changeRequestHref(project)} class="button button-secondary">
                Change requests
              </Link>
            )}
            {canGrant && (
              <Link href={`${base}/access`} class="button button-secondary">
                Access
              </Link>
            )}
            {(canGrant || canDelete) && (
              <Link href={`${base}/settings`} class="button button-secondary">
                Settings
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
      <DraftBanner project={project} />
      <FlagList query={flagQuery} base={base} project={project} environments={projectEnvironments} />
    </>
  );
}
