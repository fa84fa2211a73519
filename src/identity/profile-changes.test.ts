import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  login,
  STRONG_PASSWORD,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
let user: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  user = await createUser(server, 3);
});
afterAll(() => server.close());

/**
 * A PAT resolved once (so cached), then deleted straight from the database, telling no cache: it
 * goes on working exactly as long as the credential caches keep what they resolved, and stops the
 * moment something empties them. That is how these tests see whether a change emptied them.
 */
async function cachedPatOfDeletedRow(): Promise<string> {
  const other = await createUser(server, 3);
  expect((await server.request('GET', '/api/admin/user', { token: other.pat })).status).toBe(200);
  await server.ctx.db.query('DELETE FROM personal_access_tokens WHERE user_id = $1', [other.id]);
  expect((await server.request('GET', '/api/admin/user', { token: other.pat })).status).toBe(200);
  return other.pat;
}

describe('changes to what users read about themselves leave the credential caches alone', () => {
  it('PUT /api/admin/feedback/:id does not empty them', async () => {
    const pat = await cachedPatOfDeletedRow();
    for (let i = 0; i < 3; i++) {
      const res = await server.request('PUT', `/api/admin/feedback/survey-${i}`, {
        token: user.pat,
        body: { neverShow: true },
      });
      expect(res.status).toBe(200);
    }
    await server.ctx.sync.settled();
    expect((await server.request('GET', '/api/admin/user', { token: pat })).status).toBe(200);
    // What the caller reads about themselves shows the change at once.
    const me = await server.request('GET', '/api/admin/user', { token: user.pat });
    expect(me.body.feedback.map((f: { feedbackId: string }) => f.feedbackId)).toEqual([
      'survey-0',
      'survey-1',
      'survey-2',
    ]);
  });

  it('a sign-in does not empty them, and its user sees when they last signed in', async () => {
    const pat = await cachedPatOfDeletedRow();
    const before = await server.request('GET', '/api/admin/user', { token: user.pat });
    expect((await login(server, user.username, STRONG_PASSWORD)).status).toBe(200);
    await server.ctx.sync.settled();
    expect((await server.request('GET', '/api/admin/user', { token: pat })).status).toBe(200);
    const after = await server.request('GET', '/api/admin/user', { token: user.pat });
    expect(new Date(after.body.user.seenAt).getTime()).toBeGreaterThan(
      new Date(before.body.user.seenAt).getTime(),
    );
  });

  it('a revocation still empties them (the test would see it)', async () => {
    const pat = await cachedPatOfDeletedRow();
    const res = await server.request('DELETE', `/api/admin/user-admin/${user.id}`, {
      token: server.adminToken,
    });
    expect(res.status).toBe(200);
    await server.ctx.sync.settled();
    expect((await server.request('GET', '/api/admin/user', { token: pat })).status).toBe(401);
  });
});
