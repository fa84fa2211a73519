import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client';
import type { Environment } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { SelectField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { SecretReveal } from '../../components/secret-reveal';
import { Empty, Loaded, Problem } from '../../components/status';
import { formatDate, formatDateTime } from '../../format';
import { useAction } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useCan } from '../../session';
import { useProjectTrail } from '../projects/project-trail';
import { type ApiToken, SDK_TOKEN_KINDS } from './api-token';

interface FormProps {
  path: string;
  environments: string[];
  onCreated(secret: string): void;
  onCancel(): void;
}

/** A client or frontend token for this project alone; its secret is answered once. */
function CreateProjectTokenForm({ path, environments, onCreated, onCancel }: FormProps) {
  const form = useForm({ tokenName: '', type: 'client', environment: environments[0] ?? 'development' });
  return (
    <Form
      label="New project API token"
      class="form card"
      error={form.error}
      onSubmit={form.onSubmit(async (draft) => {
        onCreated((await api.post<{ secret: string }>(path, draft)).secret);
      })}
    >
      <h2>New API token</h2>
      <div class="row">
        <TextField label="Name" required {...form.field('tokenName')} />
        <SelectField label="Type" {...form.field('type')} choices={SDK_TOKEN_KINDS} />
        <SelectField
          label="Environment"
          {...form.field('environment')}
          choices={environments.map((e) => ({ value: e, label: e }))}
        />
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Create token
        </Button>
        <Button variant="quiet" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}

interface RowProps {
  path: string;
  project: string;
  token: ApiToken;
  canDelete: boolean;
  onDeleted(): void;
}

function ProjectTokenRow({ path, project, token, canDelete, onDeleted }: RowProps) {
  const action = useAction();
  const shared = token.projects.length > 1;
  return (
    <tr>
      <th scope="row" data-label="Token">
        {token.tokenName}
        <p class="muted flag-description">
          <code>{token.secret}</code>
        </p>
        <Problem message={action.problem} />
      </th>
      <td data-label="Type">{token.type}</td>
      <td data-label="Environment">{token.environment}</td>
      <td data-label="Last used">{formatDateTime(token.seenAt)}</td>
      <td data-label="Expires">{token.expiresAt ? formatDate(token.expiresAt) : 'Never'}</td>
      <td data-label="Actions">
        {shared ? (
          <span class="muted">Also for {token.projects.filter((p) => p !== project).join(', ')}</span>
        ) : (
          canDelete && (
            <DeleteButton
              confirm={{
                title: `Delete the API token “${token.tokenName}”?`,
                body: <p>SDKs that use it get 401 from now on and stop receiving the flags of {project}.</p>,
                confirmLabel: 'Delete token',
              }}
              onDelete={async () => {
                await api.del(`${path}/${token.id}`);
                onDeleted();
              }}
              action={action}
              aria-label={`Delete ${token.tokenName}`}
            />
          )
        )}
      </td>
    </tr>
  );
}

/** The API tokens of one project: listed, made (the secret shown once) and deleted by its members. */
export function ProjectTokensPage({ params }: RouteProps) {
  const project = params.projectId!;
  const trail = useProjectTrail(project);
  const path = `/api/admin/projects/${seg(project)}/api-tokens`;
  const tokens = useResource<{ tokens: ApiToken[] }>(path);
  const environments = useResource<{ environments: (Environment & { visible: boolean })[] }>(
    `/api/admin/environments/project/${seg(project)}`,
  );
  const canCreate = useCan('CREATE_PROJECT_API_TOKEN', { project });
  const canDelete = useCan('DELETE_PROJECT_API_TOKEN', { project });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string>();
  const visible = (environments.data?.environments ?? []).filter((e) => e.visible).map((e) => e.name);
  return (
    <>
      <PageHeader
        title={`API tokens of ${project}`}
        trail={trail}
        actions={
          canCreate &&
          !creating && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              New API token
            </Button>
          )
        }
      />
      {secret && <SecretReveal label="The new token:" secret={secret} />}
      {creating && environments.data && (
        <CreateProjectTokenForm
          path={path}
          environments={visible}
          onCreated={(created) => {
            setSecret(created);
            setCreating(false);
            tokens.reload();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      <Loaded resources={[tokens]}>
        {({ tokens: list }) =>
          list.length === 0 ? (
            <Empty>This project has no API tokens of its own.</Empty>
          ) : (
            <table class="table">
              <caption class="visually-hidden">API tokens of {project}</caption>
              <thead>
                <tr>
                  <th scope="col">Token</th>
                  <th scope="col">Type</th>
                  <th scope="col">Environment</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((t) => (
                  <ProjectTokenRow
                    key={t.id}
                    path={path}
                    project={project}
                    token={t}
                    canDelete={canDelete}
                    onDeleted={tokens.reload}
                  />
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </>
  );
}
