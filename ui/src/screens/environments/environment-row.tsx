import { api, seg } from '../../api/client';
import { Button } from '../../components/button';
import { useConfirm } from '../../components/confirm';
import { DeleteButton } from '../../components/delete-button';
import { SelectField } from '../../components/fields';
import { Switch } from '../../components/switch';
import type { Action } from '../../forms/use-action';
import { type AdminEnvironment, ENVIRONMENT_TYPES } from './environment-types';

interface Props {
  environment: AdminEnvironment;
  position: number;
  count: number;
  onMove(by: number): void;
  /** Runs a change, shows its error and reads the list again. */
  action: Action;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One environment: its type, whether new projects get it, its place, and deleting it. */
export function EnvironmentRow({ environment: e, position, count, onMove, action }: Props) {
  const confirm = useConfirm();
  const path = `/api/admin/environments/${seg(e.name)}`;
  const production = e.type === 'production';
  const toggle = async () => {
    if (production && e.enabled) {
      const yes = await confirm({
        title: `Disable the production environment “${e.name}”?`,
        body: <p>New projects no longer get it. Projects that have it keep it, and SDKs keep their flags.</p>,
        confirmLabel: 'Disable',
        danger: true,
      });
      if (!yes) return;
    }
    await action.run(() => api.post(`${path}/${e.enabled ? 'off' : 'on'}`));
  };
  const choices = ENVIRONMENT_TYPES.some((t) => t.value === e.type)
    ? ENVIRONMENT_TYPES
    : [...ENVIRONMENT_TYPES, { value: e.type, label: e.type }];
  return (
    <tr>
      <th scope="row" data-label="Environment">
        {e.name}
        {production && <span class="badge badge-env-production">production</span>}
      </th>
      <td data-label="Type">
        <SelectField
          label={`Type of ${e.name}`}
          value={e.type}
          choices={choices}
          onValue={(type) =>
            action.run(() => api.put(`/api/admin/environments/update/${seg(e.name)}`, { type }))
          }
        />
      </td>
      <td data-label="Used by">
        {plural(e.projectCount, 'project')}, {plural(e.apiTokenCount, 'token')}, {e.enabledToggleCount} on
      </td>
      <td data-label="Enabled">
        <Switch checked={e.enabled} label={`${e.name} enabled`} onToggle={toggle} busy={action.busy} />
      </td>
      <td data-label="Order">
        <div class="actions">
          <Button
            variant="quiet"
            onClick={() => onMove(-1)}
            disabled={position === 0}
            aria-label={`Move ${e.name} up`}
          >
            ↑
          </Button>
          <Button
            variant="quiet"
            onClick={() => onMove(1)}
            disabled={position === count - 1}
            aria-label={`Move ${e.name} down`}
          >
            ↓
          </Button>
        </div>
      </td>
      <td data-label="Delete">
        {e.protected ? (
          <span class="muted">Built in</span>
        ) : (
          <DeleteButton
            confirm={{
              title: `Delete the environment “${e.name}”?`,
              body: (
                <p>
                  Every flag's settings and strategies in “{e.name}” are deleted ({e.enabledToggleCount} flags
                  are on there now), and its {plural(e.apiTokenCount, 'API token')} stop working. This cannot
                  be undone.
                </p>
              ),
              confirmLabel: 'Delete environment',
            }}
            onDelete={() => api.del(path)}
            action={action}
            aria-label={`Delete ${e.name}`}
          />
        )}
      </td>
    </tr>
  );
}
