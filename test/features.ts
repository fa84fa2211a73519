import { afterAll, beforeAll, expect } from 'vitest';
import { admin } from './requests.js';
import {
  countEvents,
  createUser,
  type Reply,
  startTestServer,
  type TestServer,
  type TestUser,
  writeDirectly,
} from './server.js';

/** A client (backend) token for `startTestServer({ INIT_CLIENT_API_TOKENS: CLIENT_TOKEN })`. */
export const CLIENT_TOKEN = `*:development.${'c'.repeat(56)}`;

export function startEnv() {
  return { INIT_CLIENT_API_TOKENS: CLIENT_TOKEN };
}

export { createFeature, createProject } from './server.js';

/** Grants a project role (Member 5, Owner 4) straight in the database, as E3 would. */
export async function grantRole(
  server: TestServer,
  userId: number,
  project: string,
  roleId = 5,
): Promise<void> {
  await writeDirectly(server, 'INSERT INTO role_user (role_id, user_id, project) VALUES ($1, $2, $3)', [
    roleId,
    userId,
    project,
  ]);
}

/** Sets a feature's environment on or off straight in the database (on/off is another area's). */
export async function setEnabled(server: TestServer, feature: string, environment: string, enabled: boolean) {
  await writeDirectly(
    server,
    'UPDATE feature_environments SET enabled = $3 WHERE feature_name = $1 AND environment = $2',
    [feature, environment, enabled],
  );
}

export async function readFeature(server: TestServer, name: string, project = 'default') {
  return server.request('GET', `/api/admin/projects/${project}/features/${name}`, {
    token: server.adminToken,
  });
}

export async function eventsOf(server: TestServer, query: string) {
  const res = await server.request('GET', `/api/admin/events?${query}`, { token: server.adminToken });
  return res.body.events as Array<Record<string, any>>;
}

/**
 * Sends a request that must be refused with `status` (and the error body of compat.md), and checks
 * that it changed nothing: the same audit event count, and `read()` answers the same before and after.
 */
export async function expectRefused(
  server: TestServer,
  status: number,
  send: () => Promise<Reply>,
  read: () => Promise<unknown>,
  label = '',
): Promise<Reply> {
  const before = await read();
  const eventsBefore = await countEvents(server);
  const res = await send();
  expect(res.status, `${label} ${res.text}`).toBe(status);
  expect(res.body, label).toMatchObject({ id: expect.any(String), name: expect.any(String) });
  expect(res.body.message.length, label).toBeGreaterThan(10);
  expect(await countEvents(server), `${label}: no event`).toBe(eventsBefore);
  expect(await read(), `${label}: unchanged`).toEqual(before);
  return res;
}

export interface Callers {
  viewer: TestUser;
}

export async function makeCallers(server: TestServer): Promise<Callers> {
  return { viewer: await createUser(server, 3) };
}

/**
 * The refusals every write endpoint owes: no credentials (401), a Viewer (403, also with a
 * text/plain body), a client token (403) and, for endpoints with a JSON body, text/plain from an
 * admin (415). Each leaves everything as it was.
 */
export async function expectCallerRefusals(
  server: TestServer,
  callers: Callers,
  request: { method: string; url: string; body?: unknown; jsonBody?: boolean },
  read: () => Promise<unknown>,
): Promise<void> {
  const { method, url, body } = request;
  const send = (token: string | undefined, contentType?: string) => () =>
    server.request(method, url, {
      token,
      body: contentType === 'text/plain' ? JSON.stringify(body ?? {}) : body,
      contentType,
    });
  const label = `${method} ${url}`;
  await expectRefused(server, 401, send(undefined), read, `${label} without credentials`);
  await expectRefused(server, 401, send('*:*.not-a-token'), read, `${label} with an unknown token`);
  await expectRefused(server, 403, send(callers.viewer.pat), read, `${label} as a Viewer`);
  await expectRefused(server, 403, send(CLIENT_TOKEN), read, `${label} with a client token`);
  if (request.jsonBody !== false && method !== 'GET' && method !== 'DELETE') {
    await expectRefused(
      server,
      403,
      send(callers.viewer.pat, 'text/plain'),
      read,
      `${label} Viewer text/plain`,
    );
    await expectRefused(server, 415, send(server.adminToken, 'text/plain'), read, `${label} text/plain`);
  }
}

/** A strategy and environment variants, written straight into the database (another area's endpoints). */
export async function addStrategyAndVariants(server: TestServer, feature: string, environment: string) {
  const id = `${feature}-${environment}-strategy`;
  await writeDirectly(
    server,
    `INSERT INTO feature_strategies (id, feature_name, environment, strategy_name, parameters)
     VALUES ($1, $2, $3, 'flexibleRollout', $4::jsonb)`,
    [id, feature, environment, JSON.stringify({ rollout: '50', stickiness: 'default', groupId: feature })],
  );
  const variants = [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }];
  await writeDirectly(
    server,
    'UPDATE feature_environments SET variants = $3::jsonb WHERE feature_name = $1 AND environment = $2',
    [feature, environment, JSON.stringify(variants)],
  );
  return { id, variants };
}

// The server and callers of a test file: live bindings, filled in by the beforeAll that
// `useFeatureServer()` registers (each test file has its own module instance).
export let server: TestServer;
export let callers: Callers;

/** A server with the client token of `startEnv()` and a Viewer; `setup` adds the file's own data. */
export function useFeatureServer(setup: () => Promise<void> = async () => {}): void {
  beforeAll(async () => {
    server = await startTestServer(startEnv());
    callers = await makeCallers(server);
    await setup();
  });
  afterAll(() => server.close());
}

/** The metadata of a feature as read back, or the status when it cannot be read. */
export async function readMetadata(name: string, project = 'default') {
  const res = await readFeature(server, name, project);
  if (res.status !== 200) return res.status;
  const { name: n, description, type, project: p, stale, impressionData, archived } = res.body;
  return { name: n, description, type, project: p, stale, impressionData, archived };
}

/** The tag types, as the admin reads them on `useFeatureServer()`'s server. */
export async function tagTypes() {
  return (await server.request('GET', '/api/admin/tag-types', admin(server))).body.tagTypes;
}

/** The state export (E5's counterpart), as the admin reads it on `useFeatureServer()`'s server. */
export async function exportState() {
  return (await server.request('GET', '/api/admin/state/export', admin(server))).body;
}
