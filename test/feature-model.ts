import { afterAll, beforeAll, expect } from 'vitest';
import { admin } from './requests.js';
import { countEvents, createUser, type Reply, startTestServer, type TestServer } from './server.js';

/** A client (backend) token for `default:development`, created at start-up. */
export const CLIENT_TOKEN = `default:development.${'c'.repeat(56)}`;

export async function startFeatureServer(): Promise<TestServer> {
  return startTestServer({ INIT_BACKEND_API_TOKENS: CLIENT_TOKEN });
}

/** `/api/admin/projects/:p/features/:f/environments/:env` */
export function environmentPath(feature: string, environment = 'development', project = 'default'): string {
  return `/api/admin/projects/${project}/features/${feature}/environments/${environment}`;
}

export { createFeature as makeFeature, createProject as makeProject, lastEvent } from './server.js';

/** Adds a strategy with the admin token and returns it. */
export async function addStrategy(
  server: TestServer,
  feature: string,
  body: Record<string, unknown> = { name: 'default' },
  environment = 'development',
  project = 'default',
): Promise<any> {
  const res = await server.request('POST', `${environmentPath(feature, environment, project)}/strategies`, {
    token: server.adminToken,
    body,
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export async function readFeature(server: TestServer, feature: string, project = 'default'): Promise<any> {
  const res = await server.request('GET', `/api/admin/projects/${project}/features/${feature}`, {
    token: server.adminToken,
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/**
 * Runs a request that must be refused: asserts its status and error name, and that neither the
 * audit log nor what `read` returns changed.
 */
export async function expectRefused(
  server: TestServer,
  read: () => Promise<unknown>,
  act: () => Promise<Reply>,
  status: number,
  label = '',
): Promise<Reply> {
  const events = await countEvents(server);
  const before = await read();
  const res = await act();
  expect(res.status, `${label} ${res.text}`).toBe(status);
  const names: Record<number, string> = {
    400: 'ValidationError',
    401: 'AuthenticationRequired',
    403: 'NoAccessError',
    404: 'NotFoundError',
    409: 'NameExistsError',
    415: 'ContentTypeError',
  };
  expect(res.body?.name, label).toBe(names[status]);
  expect(typeof res.body?.message).toBe('string');
  expect(await countEvents(server), label).toBe(events);
  expect(await read(), label).toEqual(before);
  return res;
}

export interface Callers {
  editor: string;
  viewer: string;
}

/** An Editor's and a Viewer's personal access tokens. */
export async function makeCallers(server: TestServer): Promise<Callers> {
  const [editor, viewer] = [await createUser(server, 2), await createUser(server, 3)];
  return { editor: editor.pat, viewer: viewer.pat };
}

// The server and callers of a test file: live bindings, filled in by the beforeAll that
// `useFeatureModelServer()` registers (each test file has its own module instance).
export let server: TestServer;
export let callers: Callers;

/** `startFeatureServer()` with an Editor and a Viewer; `setup` adds the file's own data. */
export function useFeatureModelServer(setup: () => Promise<void> = async () => {}): void {
  beforeAll(async () => {
    server = await startFeatureServer();
    callers = await makeCallers(server);
    await setup();
  });
  afterAll(() => server.close());
}

/** A feature's strategies in an environment: `…/environments/:env/strategies`. */
export function strategiesPath(
  feature = 'checkout',
  environment = 'development',
  project = 'default',
): string {
  return `${environmentPath(feature, environment, project)}/strategies`;
}

/** The strategies of a feature in an environment, as the admin reads them on `useFeatureModelServer()`'s server. */
export async function listStrategies(feature = 'checkout', environment = 'development') {
  return (await server.request('GET', strategiesPath(feature, environment), admin(server))).body;
}

/** A context field, as the admin reads it on `useFeatureModelServer()`'s server. */
export async function contextField(name: string) {
  return (await server.request('GET', `/api/admin/context/${name}`, admin(server))).body;
}

/** The context fields, as the admin reads them on `useFeatureModelServer()`'s server. */
export async function contextFields() {
  return (await server.request('GET', '/api/admin/context', admin(server))).body;
}
