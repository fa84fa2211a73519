import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countEvents,
  createUser,
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

const put = (id: string, body: unknown, auth: { token?: string; cookie?: string }) =>
  server.request('PUT', `/api/admin/feedback/${id}`, { ...auth, body });

describe('E8 PUT /api/admin/feedback/:id', () => {
  it('creates the caller’s record with neverShow false and given now', async () => {
    const before = Date.now();
    const res = await put('pnps', {}, { token: user.pat });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: user.id, feedbackId: 'pnps', neverShow: false });
    expect(new Date(res.body.given).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('changes only the fields sent', async () => {
    const first = await put(
      'survey',
      { neverShow: true, given: '2026-01-01T10:00:00.000Z' },
      { cookie: user.cookie },
    );
    expect(first.body).toMatchObject({ neverShow: true, given: '2026-01-01T10:00:00.000Z' });
    const second = await put('survey', { given: '2026-02-01T10:00:00.000Z' }, { token: user.pat });
    expect(second.body).toMatchObject({ neverShow: true, given: '2026-02-01T10:00:00.000Z' });
    const third = await put('survey', { neverShow: false }, { token: user.pat });
    expect(third.body).toMatchObject({ neverShow: false, given: '2026-02-01T10:00:00.000Z' });
    const empty = await put('survey', {}, { token: user.pat });
    expect(empty.body).toEqual(third.body);
    const cleared = await put('survey', { given: null }, { token: user.pat });
    expect(cleared.body.given).toBeNull();
  });

  it('ignores userId and unknown properties: the record is always the caller’s', async () => {
    const other = await createUser(server, 3);
    const res = await put('survey', { userId: other.id, neverShow: true, color: 'red' }, { token: user.pat });
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe(user.id);
    const mine = await server.request('GET', '/api/admin/user', { token: other.pat });
    expect(mine.body.feedback).toEqual([]);
  });

  it('is listed in GET /api/admin/user', async () => {
    const me = await server.request('GET', '/api/admin/user', { token: user.pat });
    expect(me.body.feedback.map((f: { feedbackId: string }) => f.feedbackId)).toEqual(['pnps', 'survey']);
  });

  it('refuses bad types with 400 and changes nothing', async () => {
    const before = await countEvents(server);
    expect((await put('survey', { neverShow: 'yes' }, { token: user.pat })).status).toBe(400);
    expect((await put('survey', { given: 'yesterday' }, { token: user.pat })).status).toBe(400);
    expect(await countEvents(server)).toBe(before);
  });

  it('answers 401 to an admin API token (no user) and without credentials; 415 for text', async () => {
    const res = await put('survey', { neverShow: true }, { token: server.adminToken });
    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
    expect((await put('survey', {}, {})).status).toBe(401);
    const text = await server.request('PUT', '/api/admin/feedback/survey', {
      token: user.pat,
      body: 'x',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
  });
});

describe('POST /api/admin/feedback', () => {
  it('records feedback for the caller', async () => {
    const res = await server.request('POST', '/api/admin/feedback', {
      token: user.pat,
      body: { feedbackId: 'onboarding', neverShow: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: user.id, feedbackId: 'onboarding', neverShow: true });
    const missing = await server.request('POST', '/api/admin/feedback', { token: user.pat, body: {} });
    expect(missing.status).toBe(400);
  });
});
