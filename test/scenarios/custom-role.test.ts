import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { createUser, startTestServer, type TestServer, type TestUser } from '../server.js';

// Issue 7's scenario: a custom project role limited to development, held through a group in
// project P, governs exactly what its members may change — until the group drops them.
let server: TestServer;
let user: TestUser;
let groupId: number;

const asAdmin = async (method: string, url: string, body?: unknown) => {
  const res = await server.request(method, url, { token: server.adminToken, body });
  expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
  return res.body;
};
const asUser = (method: string, url: string, body?: unknown) =>
  server.request(method, url, { token: user.pat, body, contentType: 'application/json' });

beforeAll(async () => {
  server = await startTestServer();
  await asAdmin('POST', '/api/admin/projects', { id: 'p', name: 'P' });
  await asAdmin('POST', '/api/admin/projects', { id: 'q', name: 'Q' });
  await flags(server, 'p').create('checkout');
  await flags(server, 'q').create('search');

  const role = await asAdmin('POST', '/api/admin/roles', {
    name: 'Development only',
    type: 'custom',
    description: 'Feature changes in development',
    permissions: [
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
      { name: 'CREATE_FEATURE_STRATEGY', environment: 'development' },
      { name: 'UPDATE_FEATURE_STRATEGY', environment: 'development' },
    ],
  });
  user = await createUser(server, 3);
  const group = await asAdmin('POST', '/api/admin/groups', {
    name: 'developers',
    users: [{ user: { id: user.id } }],
  });
  groupId = group.id;
  await asAdmin('POST', '/api/admin/projects/p/access', {
    roles: [role.roles.id],
    groups: [groupId],
    users: [],
  });
});
afterAll(() => server.close());

describe('a custom project role held through a group', () => {
  it('allows changes in P/development', async () => {
    expect(
      (await asUser('POST', '/api/admin/projects/p/features/checkout/environments/development/on')).status,
    ).toBe(200);
    const strategy = await asUser(
      'POST',
      '/api/admin/projects/p/features/checkout/environments/development/strategies',
      {
        name: 'flexibleRollout',
        parameters: { rollout: '25' },
      },
    );
    expect(strategy.status).toBe(200);
  });

  it('refuses changes in P/production and in project Q with 403', async () => {
    const production = await asUser(
      'POST',
      '/api/admin/projects/p/features/checkout/environments/production/on',
    );
    expect(production.status).toBe(403);
    expect(production.body.name).toBe('NoAccessError');
    expect(
      (await asUser('POST', '/api/admin/projects/q/features/search/environments/development/on')).status,
    ).toBe(403);
    const feature = await server.request('GET', '/api/admin/projects/p/features/checkout', {
      token: server.adminToken,
    });
    expect(feature.body.environments.find((e: { name: string }) => e.name === 'production').enabled).toBe(
      false,
    );
  });

  it('stops allowing anything once E19 takes the user out of the group', async () => {
    const updated = await server.request('PUT', `/api/admin/groups/${groupId}`, {
      token: server.adminToken,
      body: { name: 'developers', users: [] },
    });
    expect(updated.status).toBe(200);
    const off = await asUser('POST', '/api/admin/projects/p/features/checkout/environments/development/off');
    expect(off.status).toBe(403);
    const feature = await server.request('GET', '/api/admin/projects/p/features/checkout', {
      token: server.adminToken,
    });
    expect(feature.body.environments.find((e: { name: string }) => e.name === 'development').enabled).toBe(
      true,
    );
  });
});
