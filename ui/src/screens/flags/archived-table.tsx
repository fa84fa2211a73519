import { api, seg } from '../../api/client';
import type { FoundFlag } from '../../api/flag-search';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { formatDate } from '../../format';
import { useCan } from '../../session';

interface Props {
  flags: FoundFlag[];
  /** Shows each flag's project (the overview of every project). */
  showProject: boolean;
  /** After a flag was revived or deleted: it leaves this list. */
  onGone(flag: string): void;
  onError(message: string): void;
}

function ArchivedRow({ flag, showProject, onGone, onError }: Omit<Props, 'flags'> & { flag: FoundFlag }) {
  const project = flag.project;
  const canRevive = useCan('UPDATE_FEATURE', { project });
  const canDelete = useCan('DELETE_FEATURE', { project });
  const run = async (action: () => Promise<unknown>) => {
    try {
      await action();
      onGone(flag.name);
    } catch (error) {
      onError((error as Error).message);
    }
  };
  const revive = () =>
    run(() => api.post(`/api/admin/projects/${seg(project)}/revive`, { features: [flag.name] }));
  return (
    <tr>
      <th scope="row" data-label="Flag">
        {flag.name}
        {flag.description && <p class="muted flag-description">{flag.description}</p>}
      </th>
      {showProject && <td data-label="Project">{project}</td>}
      <td data-label="Type">{flag.type}</td>
      <td data-label="Archived">{formatDate(flag.archivedAt)}</td>
      <td data-label="Actions">
        <div class="actions">
          {canRevive && (
            <Button onClick={revive} aria-label={`Revive ${flag.name}`}>
              Revive
            </Button>
          )}
          {canDelete && (
            <DeleteButton
              confirm={{
                title: `Delete “${flag.name}” for good?`,
                body: (
                  <p>
                    The flag, its strategies, variants and tags are deleted and cannot be revived. Its name
                    becomes free for a new flag.
                  </p>
                ),
                confirmLabel: 'Delete for good',
              }}
              onDelete={() => api.del(`/api/admin/archive/${seg(flag.name)}`)}
              action={{ run }}
              aria-label={`Delete ${flag.name} for good`}
            />
          )}
        </div>
      </td>
    </tr>
  );
}

/** Archived flags: revive one (it comes back off everywhere), or delete it for good. */
export function ArchivedTable(props: Props) {
  return (
    <table class="table">
      <caption class="visually-hidden">Archived flags</caption>
      <thead>
        <tr>
          <th scope="col">Flag</th>
          {props.showProject && <th scope="col">Project</th>}
          <th scope="col">Type</th>
          <th scope="col">Archived</th>
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.flags.map((flag) => (
          <ArchivedRow key={`${flag.project}/${flag.name}`} flag={flag} {...props} />
        ))}
      </tbody>
    </table>
  );
}
