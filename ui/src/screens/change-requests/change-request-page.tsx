import { useState } from 'preact/hooks';
import { seg } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { requestsPath } from '../../change-requests/drafts';
import { type ChangeRequest, isClosed, requestName, userName } from '../../change-requests/types';
import { Button } from '../../components/button';
import { Loaded, Problem } from '../../components/status';
import { formatDateTime } from '../../format';
import { useAction } from '../../forms/use-action';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useSession } from '../../session';
import { changeRequestHref } from '../../shared/links';
import { useProjectTrail } from '../projects/project-trail';
import { RequestActions } from './request-actions';
import { RequestChanges } from './request-changes';
import { RequestComments, RequestReviews } from './request-discussion';
import { RequestSchedule } from './request-schedule';
import { TitleForm } from './request-title';
import { StateBadge } from './state-badge';

/** Where the request stands: its state, environment, author and when it was made. */
function RequestFacts({ request }: { request: ChangeRequest }) {
  return (
    <dl class="request-facts">
      <div>
        <dt>State</dt>
        <dd>
          <StateBadge state={request.state} />
        </dd>
      </div>
      <div>
        <dt>Environment</dt>
        <dd>{request.environment}</dd>
      </div>
      <div>
        <dt>Requested by</dt>
        <dd>{userName(request.createdBy)}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>{formatDateTime(request.createdAt)}</dd>
      </div>
    </dl>
  );
}

/**
 * One change request: what it changes (each change beside what it changes from), its reviews and
 * comments, and the steps its state and the user's rights allow.
 */
export function ChangeRequestPage({ params }: RouteProps) {
  const project = params.projectId!;
  const id = params.changeRequestId!;
  const request = useResource<ChangeRequest>(`${requestsPath(project)}/${seg(id)}`);
  const action = useAction();
  const session = useSession();
  const [renaming, setRenaming] = useState(false);
  const trail = [...useProjectTrail(project), { href: changeRequestHref(project), label: 'Change requests' }];
  const header = <PageHeader title={`Change request #${id}`} trail={trail} />;
  return (
    <Loaded resources={[request]} header={header} label="Loading the change request…">
      {(cr) => {
        const owns = cr.createdBy.id === session.me.user.id || session.isAdmin;
        return (
          <>
            <PageHeader
              title={requestName(cr)}
              trail={trail}
              actions={
                owns &&
                !isClosed(cr.state) &&
                !renaming && (
                  <Button onClick={() => setRenaming(true)}>{cr.title ? 'Rename' : 'Add a title'}</Button>
                )
              }
            >
              {renaming && (
                <TitleForm request={cr} onSaved={request.reload} onClose={() => setRenaming(false)} />
              )}
              <RequestFacts request={cr} />
              {cr.schedule && <RequestSchedule schedule={cr.schedule} reload={request.reload} />}
            </PageHeader>
            <Problem message={action.problem} />
            <RequestActions request={cr} action={action} reload={request.reload} />
            <section aria-labelledby="changes-title" class="request-changes">
              <h2 id="changes-title">Changes in {cr.environment}</h2>
              <RequestChanges request={cr} action={action} reload={request.reload} />
            </section>
            <RequestReviews request={cr} />
            <RequestComments request={cr} reload={request.reload} />
          </>
        );
      }}
    </Loaded>
  );
}
