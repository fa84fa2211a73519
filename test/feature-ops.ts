import { expect } from 'vitest';
import { createRole, type PermissionEntry } from './access.js';
import { grantRole } from './features.js';
import { asAdmin } from './requests.js';
import { createUser, type TestServer, type TestUser } from './server.js';

export { asAdmin, expectStatus } from './requests.js';

// Helpers of the feature-operation tests (clone, bulk switches, lifecycle, links, favorites…).

/** A client token of the production environment, next to `startEnv()`'s development one. */
export const PRODUCTION_CLIENT_TOKEN = `*:production.${'d'.repeat(56)}`;

let roles = 0;

/**
 * A Viewer holding, in the project, a custom role with only these permissions: a project member
 * who may do some things there and not others.
 */
export async function projectMember(
  server: TestServer,
  project: string,
  permissions: (string | PermissionEntry)[],
): Promise<TestUser> {
  roles += 1;
  const role = await createRole(server, {
    name: `ops role ${roles}`,
    type: 'custom',
    permissions: permissions.map((p) => (typeof p === 'string' ? { name: p } : p)),
  });
  const user = await createUser(server, 3);
  await grantRole(server, user.id, project, role);
  return user;
}

/** The events of a type about a feature, newest first. */
export async function eventsAbout(server: TestServer, feature: string, type: string) {
  const res = await asAdmin(
    server,
    'GET',
    `/api/admin/events?feature=${encodeURIComponent(feature)}&type=${encodeURIComponent(type)}`,
  );
  return res.body.events as Array<Record<string, any>>;
}

/** A feature's environment as the admin reads it. */
export async function featureEnvironment(
  server: TestServer,
  feature: string,
  environment: string,
  project = 'default',
) {
  const res = await asAdmin(
    server,
    'GET',
    `/api/admin/projects/${project}/features/${feature}/environments/${environment}`,
  );
  expect(res.status, res.text).toBe(200);
  return res.body;
}
