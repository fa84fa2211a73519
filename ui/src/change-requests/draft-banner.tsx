import { useEffect } from 'preact/hooks';
import { useResource } from '../api/use-resource';
import { Link } from '../router';
import { changeRequestHref } from '../shared/links';
import { onDraftChange, requestsPath } from './drafts';
import { type ChangeRequest, changeCount, requestName } from './types';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The user's open change requests of the project, above its pages: a draft waits for them to
 * submit it, and what they change shows nowhere else until it is applied. Read again when a change
 * goes to a draft on this page.
 */
export function DraftBanner({ project }: { project: string }) {
  const pending = useResource<ChangeRequest[]>(`${requestsPath(project)}/pending`);
  const { reload } = pending;
  useEffect(() => onDraftChange(reload), [reload]);
  // A draft whose changes were all removed asks nothing of anyone.
  const open = (pending.data ?? []).filter((r) => changeCount(r) > 0);
  if (open.length === 0) return null;
  return (
    <section class="draft-banners" aria-label="Your change requests">
      {open.map((r) => (
        <p key={r.id} class="draft-banner">
          {r.state === 'Draft' ? (
            <>
              You have a draft change request for {r.environment} with {plural(changeCount(r), 'change')}.{' '}
              <Link href={changeRequestHref(project, r.id)}>Review and submit</Link>
            </>
          ) : (
            <>
              Your change request “{requestName(r)}” for {r.environment} is {r.state.toLowerCase()}.{' '}
              <Link href={changeRequestHref(project, r.id)}>Open it</Link>
            </>
          )}
        </p>
      ))}
    </section>
  );
}
