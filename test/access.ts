import { afterAll, beforeAll, expect } from 'vitest';
import {
  createProject,
  createUser,
  type Reply,
  startTestServer,
  type TestServer,
  type TestUser,
} from './server.js';

/** Helpers for the access-control tests: roles, groups and grants made with the admin token. */

export interface Credentials {
  viewer: string;
  editor: string;
  client: string;
}

export interface AccessFixture {
  server: TestServer;
  viewer: TestUser;
  editor: TestUser;
  /** A Viewer's and an Editor's PAT, and a client token: none of them may manage access. */
  credentials: Credentials;
}

/** A server with a Viewer, an Editor and a client token, the callers every refusal is tested with. */
export async function startAccessServer(env: Record<string, string> = {}): Promise<AccessFixture> {
  const client = `default:development.${'c'.repeat(56)}`;
  const server = await startTestServer({ INIT_BACKEND_API_TOKENS: client, ...env });
  const viewer = await createUser(server, 3);
  const editor = await createUser(server, 2);
  return { server, viewer, editor, credentials: { viewer: viewer.pat, editor: editor.pat, client } };
}

export interface PermissionEntry {
  name: string;
  environment?: string;
}

export async function createRole(
  server: TestServer,
  body: {
    name: string;
    type?: 'root-custom' | 'custom';
    description?: string;
    permissions?: PermissionEntry[];
  },
): Promise<number> {
  const res = await server.request('POST', '/api/admin/roles', { token: server.adminToken, body });
  expect(res.status, res.text).toBe(201);
  return res.body.roles.id;
}

/** A group's `users` field: these users as its members. */
export function groupMembers(...ids: number[]): { user: { id: number } }[] {
  return ids.map((id) => ({ user: { id } }));
}

export async function createGroup(
  server: TestServer,
  body: { name: string; rootRole?: number | null; users?: { user: { id: number } }[]; description?: string },
): Promise<any> {
  const res = await server.request('POST', '/api/admin/groups', { token: server.adminToken, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function grant(
  server: TestServer,
  project: string,
  body: { roles: number[]; users?: number[]; groups?: number[] },
): Promise<void> {
  const res = await server.request('POST', `/api/admin/projects/${project}/access`, {
    token: server.adminToken,
    body: { users: [], groups: [], ...body },
  });
  expect(res.status, res.text).toBe(200);
}

export { createProject, lastEvent } from './server.js';

let featureCounter = 0;

/** Creates a feature in the project as the given credential; returns the answer. */
export function createFeature(server: TestServer, token: string, project: string): Promise<Reply> {
  featureCounter += 1;
  return server.request('POST', `/api/admin/projects/${project}/features`, {
    token,
    body: { name: `feature-${featureCounter}-${Date.now()}` },
  });
}

/**
 * The statuses every admin-only write answers: 401 without credentials, 403 for Viewers, Editors
 * and client tokens (whatever the body), 415 for a body that is not JSON.
 */
export async function expectAdminOnly(
  server: TestServer,
  method: string,
  url: string,
  credentials: Credentials,
  body?: unknown,
): Promise<void> {
  const noCredentials = await server.request(method, url, { body });
  expect(noCredentials.status, `${method} ${url} without credentials`).toBe(401);
  for (const [who, token] of Object.entries(credentials)) {
    const res = await server.request(method, url, { token, body });
    expect(res.status, `${method} ${url} as ${who}`).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
  }
  if (body !== undefined) {
    const wrongType = await server.request(method, url, {
      token: server.adminToken,
      body: JSON.stringify(body),
      contentType: 'text/plain',
    });
    expect(wrongType.status, `${method} ${url} as text/plain`).toBe(415);
  }
}

// The project-access test files share one set-up: live bindings, filled in by the beforeAll that
// `useProjectAccessFixture()` registers (each test file has its own module instance).
export let server: TestServer;
export let viewer: TestUser;
export let editor: TestUser;
export let credentials: Credentials;
/** A custom project role holding only CREATE_FEATURE. */
export let featureMaker: number;

/** An access server with the projects `p` and `q` and the role `featureMaker`. */
export function useProjectAccessFixture(): void {
  beforeAll(async () => {
    ({ server, viewer, editor, credentials } = await startAccessServer());
    await createProject(server, 'p');
    await createProject(server, 'q');
    featureMaker = await createRole(server, {
      name: 'Feature maker',
      permissions: [{ name: 'CREATE_FEATURE' }],
    });
  });
  afterAll(() => server.close());
}

/** `GET /api/admin/projects/:project/access` as the admin. */
export async function readAccess(project: string) {
  const res = await server.request('GET', `/api/admin/projects/${project}/access`, {
    token: server.adminToken,
  });
  expect(res.status).toBe(200);
  return res.body;
}

/** The roles listed for the user or group `id`. */
export function rolesOf(list: { id: number; roles: number[] }[], id: number): number[] | undefined {
  return list.find((x) => x.id === id)?.roles;
}
