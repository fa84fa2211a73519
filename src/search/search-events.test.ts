import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFeature,
  createUser,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
let editor: TestUser;
let viewer: TestUser;
const CLIENT_TOKEN = `*:development.${'e'.repeat(56)}`;

const get = (url: string, token = server.adminToken) => server.request('GET', url, { token });
const search = (query = '', token?: string) => get(`/api/admin/search/events${query}`, token);
const types = async (query: string) => {
  const res = await search(query);
  expect(res.status).toBe(200);
  return res.body.events.map(
    (e: { type: string; featureName: string | null }) => `${e.type} ${e.featureName}`,
  );
};

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: CLIENT_TOKEN });
  editor = await createUser(server, 2);
  viewer = await createUser(server, 3);
  await createFeature(server, 'ev-alpha', 'default', { description: 'Needle in the data' });
  const byEditor = await server.request('POST', '/api/admin/projects/default/features', {
    token: editor.pat,
    body: { name: 'ev-beta' },
  });
  expect(byEditor.status).toBe(201);
  const on = await server.request(
    'POST',
    '/api/admin/projects/default/features/ev-beta/environments/production/on',
    {
      token: editor.pat,
    },
  );
  expect(on.status).toBe(200);
  // An old event, for the dates.
  await server.ctx.db.query(
    `INSERT INTO events (type, created_by, project, feature_name, created_at)
     VALUES ('feature-created', 'someone', 'default', 'ev-old', '2020-05-04T23:59:00Z')`,
  );
});
afterAll(() => server.close());

describe('GET /api/admin/search/events', () => {
  it('answers every event newest first, in the event shape of /api/admin/events, with the total', async () => {
    const res = await search();
    expect(res.status).toBe(200);
    const legacy = await get('/api/admin/events?limit=50');
    expect(res.body.total).toBe(legacy.body.totalEvents);
    expect(res.body.events).toEqual(legacy.body.events.slice(0, res.body.events.length));
    const ids = res.body.events.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    // [0] is the event written straight to the table last.
    expect(res.body.events[1]).toEqual({
      id: expect.any(Number),
      type: 'feature-environment-enabled',
      createdBy: editor.username,
      createdByUserId: editor.id,
      createdAt: expect.any(String),
      project: 'default',
      featureName: 'ev-beta',
      environment: 'production',
      data: { enabled: true },
      preData: { enabled: false },
    });
  });

  it('filters by feature, project, type, creator, environment, id and text in the data', async () => {
    expect(await types('?feature=IS:ev-beta')).toEqual([
      'feature-environment-enabled ev-beta',
      'feature-strategy-add ev-beta',
      'feature-created ev-beta',
    ]);
    expect(await types('?feature=IS_ANY_OF:ev-alpha,ev-old&type=IS:feature-created')).toEqual([
      'feature-created ev-old',
      'feature-created ev-alpha',
    ]);
    expect(await types(`?createdBy=IS:${editor.id}`)).toEqual([
      'feature-environment-enabled ev-beta',
      'feature-strategy-add ev-beta',
      'feature-created ev-beta',
      'pat-created null',
    ]);
    expect(await types('?environment=IS:production')).toEqual([
      'feature-environment-enabled ev-beta',
      'feature-strategy-add ev-beta',
    ]);
    expect(await types('?query=NEEDLE')).toEqual(['feature-created ev-alpha']);
    expect(await types('?query=100%25')).toEqual([]);
    expect(await types('?project=IS:other')).toEqual([]);
    const one = (await search('?feature=IS:ev-alpha')).body.events[0];
    expect((await search(`?id=IS:${one.id}`)).body.events).toEqual([one]);
  });

  it('keeps the events of the days from and to name (UTC), both included', async () => {
    expect(await types('?to=IS:2020-05-04')).toEqual(['feature-created ev-old']);
    expect(await types('?from=IS:2020-05-04&to=IS:2020-05-04')).toEqual(['feature-created ev-old']);
    expect(await types('?from=IS:2020-05-05&to=IS:2021-01-01')).toEqual([]);
    const recent = await search('?from=IS:2020-05-05');
    expect(recent.body.total).toBe((await search()).body.total - 1);
  });

  it('pages with offset and limit (50 by default)', async () => {
    const all = (await search('?limit=1000')).body;
    const page = (await search('?offset=1&limit=2')).body;
    expect(page.total).toBe(all.total);
    expect(page.events).toEqual(all.events.slice(1, 3));
    expect((await search()).body.events).toHaveLength(Math.min(50, all.total));
  });

  it('lets any signed-in user search; refuses no credentials (401) and client tokens (403)', async () => {
    expect((await search('', viewer.pat)).status).toBe(200);
    const none = await server.request('GET', '/api/admin/search/events');
    expect(none.status).toBe(401);
    expect(none.body.name).toBe('AuthenticationRequired');
    expect((await search('', CLIENT_TOKEN)).status).toBe(403);
  });

  it.each([
    ['project=default', 'project'],
    ['type=IS_NOT:feature-created', 'type'],
    ['createdBy=IS:abc', 'createdBy'],
    ['id=IS:1.5', 'id'],
    ['from=2024-01-01', 'from'],
    ['to=IS:2024-02-30', 'to'],
    ['offset=-1', 'offset'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
  ])('answers 400 to %s', async (query, field) => {
    const res = await search(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details.some((d: { path?: string }) => d.path?.includes(field))).toBe(true);
  });
});

describe('GET /api/admin/events/:featureName', () => {
  it("answers every event of the feature, newest first, under Unleash's names", async () => {
    const res = await get('/api/admin/events/ev-beta', viewer.pat);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: 1,
      toggleName: 'ev-beta',
      events: [
        expect.objectContaining({ type: 'feature-environment-enabled', featureName: 'ev-beta' }),
        expect.objectContaining({ type: 'feature-strategy-add', featureName: 'ev-beta' }),
        expect.objectContaining({ type: 'feature-created', featureName: 'ev-beta' }),
      ],
      totalEvents: 3,
    });
  });

  it('answers no events for a name never used, and 401 without credentials', async () => {
    expect((await get('/api/admin/events/never-was')).body).toEqual({
      version: 1,
      toggleName: 'never-was',
      events: [],
      totalEvents: 0,
    });
    expect((await server.request('GET', '/api/admin/events/ev-beta')).status).toBe(401);
  });
});

describe('GET /api/admin/event-creators', () => {
  it('lists the users who made changes, by id, under their names', async () => {
    const res = await get('/api/admin/event-creators', viewer.pat);
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({ id: editor.id, name: editor.username });
    const ids: number[] = res.body.map((c: { id: number }) => c.id);
    expect(ids).toEqual([...new Set(ids)].sort((a: number, b: number) => a - b));
    // The admin token is not a user; the viewer made a change too (its PAT).
    expect(ids).toContain(viewer.id);
    expect(ids.every((id) => id > 0)).toBe(true);
  });

  it('names a deleted user as the events recorded them', async () => {
    const gone = await createUser(server, 3);
    const removed = await server.request('DELETE', `/api/admin/user-admin/${gone.id}`, {
      token: server.adminToken,
    });
    expect(removed.status).toBe(200);
    const res = await get('/api/admin/event-creators');
    expect(res.body).toContainEqual({ id: gone.id, name: gone.username });
  });

  it('refuses no credentials (401)', async () => {
    expect((await server.request('GET', '/api/admin/event-creators')).status).toBe(401);
  });
});
