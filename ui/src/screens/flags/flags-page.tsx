import { useMemo } from 'preact/hooks';
import type { Environment } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { FlagList } from './flag-list';
import { queryFromUrl } from './flag-query';

/** Every flag of every project the user may read: one place to find a flag by name, tag or state. */
export function FlagsPage({ query }: RouteProps) {
  const environments = useResource<{ environments: Environment[] }>('/api/admin/environments');
  const queryText = query.toString();
  const flagQuery = useMemo(() => queryFromUrl(new URLSearchParams(queryText)), [queryText]);
  const shown = (environments.data?.environments ?? []).filter((e) => e.enabled);
  return (
    <>
      <PageHeader title="Flags" />
      <FlagList query={flagQuery} base="/flags" environments={shown} />
    </>
  );
}
