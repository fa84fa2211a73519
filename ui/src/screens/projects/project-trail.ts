import { seg } from '../../api/client';
import { useResource } from '../../api/use-resource';
import type { Crumb } from '../../layout/page-header';

/**
 * The breadcrumbs down to a project's page, the project named as people know it (its id until
 * its name has been read, or when it cannot be).
 */
export function useProjectTrail(project: string): Crumb[] {
  const details = useResource<{ name: string }>(`/api/admin/projects/${seg(project)}`);
  return [
    { href: '/projects', label: 'Projects' },
    { href: `/projects/${encodeURIComponent(project)}`, label: details.data?.name || project },
  ];
}
