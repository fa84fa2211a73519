import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TOKEN, createFeature, startEnv } from '../../../test/features.js';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../../test/server.js';

let server: TestServer;
let viewer: TestUser;
beforeAll(async () => {
  server = await startTestServer(startEnv());
  viewer = await createUser(server, 3);
  await createFeature(server, 'readable');
  await server.request('POST', '/api/admin/features/readable/tags', {
    token: server.adminToken,
    body: { value: 'seen' },
  });
});
afterAll(() => server.close());

const reads = [
  '/api/admin/projects/default/features',
  '/api/admin/feature-types',
  '/api/admin/archive/features',
  '/api/admin/archive/features/default',
  '/api/admin/environments',
  '/api/admin/environments/development',
  '/api/admin/environments/project/default',
  '/api/admin/tag-types',
  '/api/admin/tag-types/simple',
  '/api/admin/tags',
  '/api/admin/tags/simple',
  '/api/admin/tags/simple/seen',
  '/api/admin/features/readable/tags',
];

describe('the reads of this area', () => {
  it('answer any user, a Viewer too (200); a client token gets 403 and no credentials 401', async () => {
    for (const url of reads) {
      expect((await server.request('GET', url, { token: viewer.pat })).status, url).toBe(200);
      const client = await server.request('GET', url, { token: CLIENT_TOKEN });
      expect(client.status, url).toBe(403);
      expect(client.body.name, url).toBe('NoAccessError');
      const anonymous = await server.request('GET', url);
      expect(anonymous.status, url).toBe(401);
      expect(anonymous.body.name, url).toBe('AuthenticationRequired');
    }
  });
});
