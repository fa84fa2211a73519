import { api } from '../../api/client';
import { announceDraftChange, requestsPath } from '../../change-requests/drafts';
import { type Change, type ChangeRequest, isClosed } from '../../change-requests/types';
import { DeleteButton } from '../../components/delete-button';
import { Empty } from '../../components/status';
import type { Action } from '../../forms/use-action';
import { Link } from '../../router';
import { useSession } from '../../session';
import { flagHref } from '../../shared/links';
import { ChangeView, describeChange } from './change-view';

interface Props {
  request: ChangeRequest;
  action: Action;
  reload(): Promise<void>;
}

function ChangeItem({
  request,
  change,
  removable,
  action,
  reload,
}: Props & { change: Change; removable: boolean }) {
  const what = describeChange(change, request.environment);
  const remove = async () => {
    await api.del(`${requestsPath(request.project)}/${request.id}/changes/${change.id}`);
    await reload();
    announceDraftChange();
  };
  return (
    <li class={`change${change.conflict ? ' change-conflict' : ''}`}>
      <ChangeView change={change} environment={request.environment} />
      {removable && (
        <DeleteButton
          confirm={{
            title: 'Remove this change?',
            body: (
              <p>
                “{what}” leaves the change request
                {request.state === 'Approved' ? ': the request is reviewed again.' : '.'}
              </p>
            ),
            confirmLabel: 'Remove change',
          }}
          onDelete={remove}
          action={action}
          aria-label={`Remove the change: ${what}`}
        >
          Remove
        </DeleteButton>
      )}
    </li>
  );
}

/** The request's changes, by flag (then its segments), each with what it changes from; removable by its author while open. */
export function RequestChanges(props: Props) {
  const { request } = props;
  const session = useSession();
  const owns = request.createdBy.id === session.me.user.id || session.isAdmin;
  // The server lets the author change a request until it is scheduled or closed (drafts.ts).
  const removable = owns && !isClosed(request.state) && request.state !== 'Scheduled';
  if (request.features.length === 0 && request.segments.length === 0) {
    return <Empty>No changes yet: changes of flags in {request.environment} are added here.</Empty>;
  }
  return (
    <>
      {request.features.map((feature) => (
        <section key={feature.name} class="card request-flag" aria-label={`Changes of ${feature.name}`}>
          <h3>
            <Link href={flagHref(request.project, feature.name)}>{feature.name}</Link>
          </h3>
          {feature.conflict && !feature.changes.some((c) => c.conflict === feature.conflict) && (
            <p class="conflict">
              <strong>Conflict:</strong> {feature.conflict}
            </p>
          )}
          <ol class="change-list">
            {feature.changes.map((change) => (
              <ChangeItem key={change.id} {...props} change={change} removable={removable} />
            ))}
          </ol>
        </section>
      ))}
      {request.segments.length > 0 && (
        <section class="card request-flag" aria-label="Changes of segments">
          <h3>Segments</h3>
          <ol class="change-list">
            {request.segments.map((change) => (
              <ChangeItem key={change.id} {...props} change={change} removable={removable} />
            ))}
          </ol>
        </section>
      )}
    </>
  );
}
