import { api, seg } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { forgetChangeRequestConfig } from '../../change-requests/drafts';
import { SelectField } from '../../components/fields';
import { Loaded, Problem } from '../../components/status';
import { Switch } from '../../components/switch';
import { useAction } from '../../forms/use-action';
import { useCan } from '../../session';

interface EnvironmentSetting {
  environment: string;
  type: string;
  changeRequestEnabled: boolean;
  requiredApprovals: number | null;
}

const APPROVALS = Array.from({ length: 10 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));

/** Which environments of the project take changes to flags only through change requests, and with how many approvals. */
export function ChangeRequestSettings({ project }: { project: string }) {
  const path = `/api/admin/projects/${seg(project)}`;
  const settings = useResource<EnvironmentSetting[]>(`${path}/change-requests/config`);
  const action = useAction(settings.reload);
  const canUpdate = useCan('UPDATE_PROJECT', { project });
  const canWrite = useCan('PROJECT_CHANGE_REQUEST_WRITE', { project });
  const canChange = canUpdate || canWrite;
  const save = (environment: string, changeRequestsEnabled: boolean, requiredApprovals: number) =>
    action.run(async () => {
      await api.put(`${path}/environments/${seg(environment)}/change-requests/config`, {
        changeRequestsEnabled,
        requiredApprovals,
      });
      // The flag pages send changes here to drafts or not by these settings: they are read anew.
      forgetChangeRequestConfig(project);
    });
  return (
    <section aria-labelledby="change-requests-title">
      <h2 id="change-requests-title">Change requests</h2>
      <p class="muted">
        In an environment that needs them, flags change only through change requests: a direct change is
        refused to everyone without the “Skip change requests” permission there.
      </p>
      <Problem message={action.problem} />
      <Loaded resources={[settings]}>
        {(list) => (
          <table class="table">
            <caption class="visually-hidden">Change requests by environment</caption>
            <thead>
              <tr>
                <th scope="col">Environment</th>
                <th scope="col">Needs change requests</th>
                <th scope="col">Approvals</th>
              </tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <tr key={e.environment}>
                  <th scope="row" data-label="Environment">
                    {e.environment}
                  </th>
                  <td data-label="Needs change requests">
                    <Switch
                      checked={e.changeRequestEnabled}
                      label={`Change requests in ${e.environment}`}
                      disabled={!canChange}
                      busy={action.busy}
                      onToggle={() => save(e.environment, !e.changeRequestEnabled, e.requiredApprovals ?? 1)}
                    />
                  </td>
                  <td data-label="Approvals">
                    {e.changeRequestEnabled ? (
                      <SelectField
                        label={`Approvals needed in ${e.environment}`}
                        value={String(e.requiredApprovals ?? 1)}
                        choices={APPROVALS}
                        disabled={!canChange}
                        onValue={(value) => save(e.environment, true, Number(value))}
                      />
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </section>
  );
}
