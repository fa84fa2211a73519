import { afterAll, beforeAll } from 'vitest';
import {
  type Callers,
  environmentPath,
  makeCallers,
  makeFeature,
  makeProject,
  startFeatureServer,
} from './feature-model.js';
import type { TestServer } from './server.js';

// Shared by the variants test files: live bindings, filled in by the beforeAll that
// `useVariantsFixture()` registers.
export let server: TestServer;
export let callers: Callers;

/** A server with an Editor and a Viewer, a project `other` and the features `colors` and `shapes`. */
export function useVariantsFixture(): void {
  beforeAll(async () => {
    server = await startFeatureServer();
    callers = await makeCallers(server);
    await makeProject(server, 'other');
    await makeFeature(server, 'colors');
    await makeFeature(server, 'shapes');
  });
  afterAll(() => server.close());
}

export const url = (feature: string, environment = 'development', project = 'default') =>
  `${environmentPath(feature, environment, project)}/variants`;

export const read = async (feature = 'colors', environment = 'development') =>
  (await server.request('GET', url(feature, environment), { token: server.adminToken })).body;

export const put = (
  body: unknown,
  token = server.adminToken,
  feature = 'colors',
  environment = 'development',
  contentType?: string,
) => server.request('PUT', url(feature, environment), { token, body, contentType });
