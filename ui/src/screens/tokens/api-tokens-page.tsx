import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import type { Environment, Project } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { SecretReveal } from '../../components/secret-reveal';
import { Empty, Loaded, Problem } from '../../components/status';
import { formatDate, formatDateTime } from '../../format';
import { useAction } from '../../forms/use-action';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useCan, useSession } from '../../session';
import type { ApiToken } from './api-token';
import { CreateTokenForm } from './create-token-form';
import { ExpiryForm } from './expiry-form';

const TOKEN_KINDS = [
  {
    value: 'client',
    label: 'Client: server-side SDKs',
    create: 'CREATE_CLIENT_API_TOKEN',
    remove: 'DELETE_CLIENT_API_TOKEN',
  },
  {
    value: 'frontend',
    label: 'Frontend: browser and mobile SDKs',
    create: 'CREATE_FRONTEND_API_TOKEN',
    remove: 'DELETE_FRONTEND_API_TOKEN',
  },
  { value: 'admin', label: 'Admin: scripts using the admin API', create: 'ADMIN', remove: 'ADMIN' },
];

function TokenRow({ token, onChanged }: { token: ApiToken; onChanged(): void }) {
  const action = useAction();
  const kind = TOKEN_KINDS.find((k) => k.value === token.type);
  const canDelete = useCan(kind?.remove ?? 'ADMIN');
  const canChange = useCan(kind?.create ?? 'ADMIN');
  const [changing, setChanging] = useState(false);
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
      <td data-label="Scope">
        {token.type === 'admin' ? 'Everything' : `${token.projects.join(', ')} in ${token.environment}`}
      </td>
      <td data-label="Last used">{formatDateTime(token.seenAt)}</td>
      <td data-label="Expires">
        {changing ? (
          <ExpiryForm
            token={token}
            onSaved={() => {
              setChanging(false);
              onChanged();
            }}
            onCancel={() => setChanging(false)}
          />
        ) : (
          <>
            {token.expiresAt ? formatDate(token.expiresAt) : 'Never'}
            {canChange && (
              <Button
                variant="quiet"
                onClick={() => setChanging(true)}
                aria-label={`Change the expiry of ${token.tokenName}`}
              >
                Change
              </Button>
            )}
          </>
        )}
      </td>
      <td data-label="Actions">
        {canDelete && (
          <DeleteButton
            confirm={{
              title: `Delete the API token “${token.tokenName}”?`,
              body: <p>Everything that uses it gets 401 from now on: SDKs with it stop receiving flags.</p>,
              confirmLabel: 'Delete token',
            }}
            onDelete={async () => {
              await api.del(`/api/admin/api-tokens/${token.id}`);
              onChanged();
            }}
            action={action}
            aria-label={`Delete ${token.tokenName}`}
          />
        )}
      </td>
    </tr>
  );
}

/** The API tokens SDKs and scripts use; a new one's secret is shown once. */
export function ApiTokensPage(_props: RouteProps) {
  const tokens = useResource<{ tokens: ApiToken[] }>('/api/admin/api-tokens');
  const projects = useResource<{ projects: Project[] }>('/api/admin/projects');
  const environments = useResource<{ environments: Environment[] }>('/api/admin/environments');
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string>();
  const { can } = useSession();
  const creatable = TOKEN_KINDS.filter((k) => can(k.create));
  return (
    <>
      <PageHeader
        title="API tokens"
        actions={
          creatable.length > 0 &&
          !creating && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              New API token
            </Button>
          )
        }
      />
      {secret && <SecretReveal label="The new token:" secret={secret} />}
      {creating && projects.data && environments.data && (
        <CreateTokenForm
          types={creatable}
          projects={projects.data.projects}
          environments={environments.data.environments}
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
            <Empty>There are no API tokens.</Empty>
          ) : (
            <table class="table">
              <caption class="visually-hidden">API tokens</caption>
              <thead>
                <tr>
                  <th scope="col">Token</th>
                  <th scope="col">Type</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((t) => (
                  <TokenRow key={t.id} token={t} onChanged={tokens.reload} />
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </>
  );
}
