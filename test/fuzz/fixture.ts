import { createUser, type Reply, type TestServer, writeDirectly } from '../server.js';
import type { CredentialName, Credentials } from './requests.js';
import type { Pools } from './values.js';

/**
 * A small world for the fuzzer, made through the API as a client would (every step must succeed):
 * a project with its own environment, a feature with a strategy (constraint and segment) and one
 * that has it on for everyone (so that the frontend API answers it), variants and a tag, an archived
 * feature, a context field and one of the project, a custom role, a group, users of each root role
 * with personal access tokens, client and frontend tokens, an expired PAT and an expired token,
 * an invite link, a reset token, an SDK application and a (disabled) webhook. The fuzzer fills path parameters and
 * fields from its pools, by name, and sends requests with its credentials.
 */
export interface Fixture {
  pools: Pools;
  credentials: Credentials;
  /** Secrets and ids the fuzzer must not delete: its own admin token. */
  protectedSegments: ReadonlySet<string>;
}

function expectOk(res: Reply, what: string): Reply {
  if (res.status < 200 || res.status > 299) {
    throw new Error(`fixture: ${what} answered ${res.status} ${res.text.slice(0, 500)}`);
  }
  return res;
}

/** Builds the fixture; `round` makes its names unique, so it can be built again during a run. */
export async function buildFixture(server: TestServer, round: number): Promise<Fixture> {
  const token = server.adminToken;
  const send = (method: string, url: string, body?: unknown) =>
    server.request(method, url, { token, body }).then((res) => expectOk(res, `${method} ${url}`));
  const tag = `fz${round}`;
  const project = `${tag}-project`;
  const environment = `${tag}-env`;
  const feature = `${tag}-feature`;
  const archived = `${tag}-archived`;
  const contextField = `${tag}-context`;
  const projectContextField = `${tag}-project-context`;
  const tagType = `${tag}-tags`;
  const app = `${tag}-app`;

  await send('POST', '/api/admin/projects', {
    id: project,
    name: `Fuzz ${round}`,
    description: 'fuzz fixture',
  });
  await send('POST', '/api/admin/environments', { name: environment, type: 'production' });
  await send('POST', `/api/admin/projects/${project}/environments`, { environment });
  await send('POST', '/api/admin/context', {
    name: contextField,
    legalValues: [{ value: 'a' }, { value: 'b' }],
  });
  await send('POST', `/api/admin/projects/${project}/context`, {
    name: projectContextField,
    legalValues: [{ value: 'a' }],
  });
  const segment = await send('POST', '/api/admin/segments', {
    name: `${tag}-segment`,
    constraints: [{ contextName: contextField, operator: 'IN', values: ['a'] }],
  });
  await send('POST', `/api/admin/projects/${project}/features`, { name: feature, description: 'fuzzed' });
  const base = `/api/admin/projects/${project}/features/${feature}/environments/${environment}`;
  const strategy = await send('POST', `${base}/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'default', groupId: feature },
    constraints: [{ contextName: contextField, operator: 'IN', values: ['b'] }],
    segments: [segment.body.id],
  });
  await send('POST', `${base}/strategies`, { name: 'default' });
  await send('PUT', `${base}/variants`, [{ name: 'blue', weight: 1000, weightType: 'variable' }]);
  await send('POST', `${base}/on`);
  await send('POST', '/api/admin/tag-types', { name: tagType });
  await send('POST', `/api/admin/features/${feature}/tags`, { type: tagType, value: 'vv' });
  const template = await send('POST', '/api/admin/release-plan-templates', {
    name: `${tag}-template`,
    milestones: [{ name: 'first', strategies: [{ name: 'flexibleRollout', parameters: { rollout: 10 } }] }],
  });
  const milestone = template.body.milestones[0];
  await send('POST', `/api/admin/projects/${project}/features`, { name: archived });
  await send('POST', `/api/admin/projects/${project}/archive`, { features: [archived] });

  const permissions = ['CREATE_FEATURE', 'UPDATE_FEATURE'].map((name) => ({ name }));
  const role = await send('POST', '/api/admin/roles', { name: `${tag}-role`, type: 'custom', permissions });
  const roleId: number = role.body.roles.id;

  const admin = await createUser(server, 1, `${tag}-admin`);
  // A change request under review, its changes asked for while the environment took them only
  // so: direct changes there stay open to the fuzzer.
  const config = `/api/admin/projects/${project}/environments/${environment}/change-requests/config`;
  await send('PUT', config, { changeRequestsEnabled: true, requiredApprovals: 1 });
  const changeRequest = expectOk(
    await server.request(
      'POST',
      `/api/admin/projects/${project}/environments/${environment}/change-requests`,
      {
        token: admin.pat,
        body: { feature, action: 'updateEnabled', payload: { enabled: false } },
      },
    ),
    'a change request',
  );
  expectOk(
    await server.request(
      'PUT',
      `/api/admin/projects/${project}/change-requests/${changeRequest.body.id}/state`,
      {
        token: admin.pat,
        body: { state: 'In review' },
      },
    ),
    'a change request sent to review',
  );
  await send('PUT', config, { changeRequestsEnabled: false });
  const editor = await createUser(server, 2, `${tag}-editor`);
  const viewer = await createUser(server, 3, `${tag}-viewer`);
  const group = await send('POST', '/api/admin/groups', {
    name: `${tag}-group`,
    users: [{ user: { id: viewer.id } }],
  });
  await send('PUT', `/api/admin/projects/${project}/users/${viewer.id}/roles`, { roles: [roleId] });

  const apiToken = (type: string, expiresAt?: string) =>
    send('POST', '/api/admin/api-tokens', {
      tokenName: `${tag}-${type}`,
      type,
      environment,
      projects: [project],
      ...(expiresAt ? { expiresAt } : {}),
    });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  const client = await apiToken('client');
  const frontend = await apiToken('frontend');
  const expiredToken = await apiToken('client', tomorrow);
  const expiredPat = expectOk(
    await server.request('POST', '/api/admin/user/tokens', {
      token: viewer.pat,
      body: { description: `${tag}-expiring`, expiresAt: tomorrow },
    }),
    'a PAT to expire',
  );
  // No request can make a credential that has already expired: age these two directly.
  await writeDirectly(server, `UPDATE api_tokens SET expires_at = now() - interval '1 day' WHERE id = $1`, [
    expiredToken.body.id,
  ]);
  await writeDirectly(
    server,
    `UPDATE personal_access_tokens SET expires_at = now() - interval '1 day' WHERE id = $1`,
    [expiredPat.body.id],
  );

  const reset = await send('POST', '/api/admin/user-admin/reset-password', {
    id: `${editor.username}@example.com`,
  });
  const resetToken = new URL(reset.body.resetPasswordUrl).searchParams.get('token') ?? '';
  // There is one invite link at most: the fuzz may have disabled it or let it expire since.
  const invites = await send('GET', '/api/admin/invite-link/tokens');
  const existing: string | undefined = invites.body.tokens[0]?.secret;
  const invite = existing
    ? (await send('PUT', `/api/admin/invite-link/tokens/${existing}`, {
        enabled: true,
        expiresAt: tomorrow,
      })) && existing
    : (await send('POST', '/api/admin/invite-link/tokens', { name: `${tag}-invite`, expiresAt: tomorrow }))
        .body.secret;
  await server
    .request('POST', '/api/client/register', {
      token: client.body.secret,
      body: { appName: app, instanceId: `${tag}-instance`, strategies: ['default'], interval: 10_000 },
    })
    .then((res) => expectOk(res, 'SDK registration'));

  // Loopback is allowed for the fuzz (api.fuzz.ts); nothing listens on the discard port.
  const addon = await send('POST', '/api/admin/addons', {
    provider: 'webhook',
    enabled: false,
    parameters: { url: 'http://127.0.0.1:9/fuzz', authorization: 'fuzz-secret' },
    events: ['feature-created'],
  });

  const tokens = await send('GET', '/api/admin/api-tokens');
  const adminIds: string[] = tokens.body.tokens
    .filter((t: { type: string }) => t.type === 'admin')
    .map((t: { id: number }) => String(t.id));

  const projects = [project, 'default'];
  const environments = [environment, 'development'];
  const pools: Pools = {
    projectId: projects,
    project: projects,
    projects,
    featureName: [feature, archived],
    child: [feature],
    parent: [feature],
    feature: [feature, archived],
    features: [feature, archived],
    environment: environments,
    strategyId: [strategy.body.id, milestone.strategies[0].id],
    milestoneId: [milestone.id],
    name: [feature, environment, 'flexibleRollout', tagType, contextField, archived],
    contextField: [contextField, 'userId', projectContextField],
    contextName: [contextField, 'userId'],
    value: ['a', 'vv'],
    values: ['a', 'b'],
    type: [tagType, 'simple', 'client', 'frontend', 'production', 'release'],
    tagType: [tagType],
    id: [
      viewer.id,
      segment.body.id,
      roleId,
      editor.id,
      'release',
      expiredPat.body.id,
      addon.body.id,
      template.body.id,
      changeRequest.body.id,
    ],
    changeId: [changeRequest.body.features[0].changes[0].id],
    segments: [segment.body.id],
    groupId: [group.body.id],
    groups: [group.body.id],
    userId: [viewer.id, editor.id],
    users: [viewer.id],
    roles: [roleId, 4, 5],
    rootRole: [1, 2, 3],
    username: [viewer.username, editor.username],
    email: [`${viewer.username}@example.com`],
    token: [invite, resetToken],
    appName: [app],
  };

  const named: Record<Exclude<CredentialName, 'audience'>, { authorization?: string; cookie?: string }> = {
    admin: { authorization: token },
    adminUser: { authorization: admin.pat },
    editor: { authorization: editor.pat },
    viewer: { authorization: viewer.pat },
    viewerSession: { cookie: viewer.cookie },
    client: { authorization: client.body.secret },
    frontend: { authorization: frontend.body.secret },
    expiredPat: { authorization: expiredPat.body.secret },
    expiredToken: { authorization: expiredToken.body.secret },
  };
  const credentials: Credentials = {
    resolve(name, url) {
      if (name !== 'audience') return named[name];
      if (url.startsWith('/api/client')) return named.client;
      if (url.startsWith('/api/frontend') || url.startsWith('/ofrep/')) return named.frontend;
      return named.admin;
    },
  };
  return { pools, credentials, protectedSegments: new Set([...adminIds, token]) };
}
