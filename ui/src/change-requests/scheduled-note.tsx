import { Fragment } from 'preact';
import { useEffect } from 'preact/hooks';
import { useResource } from '../api/use-resource';
import { Link } from '../router';
import { changeRequestHref } from '../shared/links';
import { onDraftChange, requestsPath } from './drafts';
import type { ScheduledRef } from './types';

/**
 * The scheduled change requests that change a flag, on its page: what it shows now will change by
 * itself at their time, and a change made meanwhile may suspend them.
 */
export function ScheduledNote({ project, flag }: { project: string; flag: string }) {
  const scheduled = useResource<ScheduledRef[]>(
    `${requestsPath(project)}/scheduled?feature=${encodeURIComponent(flag)}`,
  );
  const { reload } = scheduled;
  useEffect(() => onDraftChange(reload), [reload]);
  const list = scheduled.data ?? [];
  if (list.length === 0) return null;
  return (
    <p class="draft-note scheduled-note">
      Scheduled change requests:{' '}
      {list.map((r, i) => (
        <Fragment key={r.id}>
          {i > 0 && ', '}
          <Link href={changeRequestHref(project, r.id)}>#{r.id}</Link> ({r.environment})
        </Fragment>
      ))}
    </p>
  );
}
