import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // a few events of different kinds
  await createUser(server, 3, 'ev-one');
  await createUser(server, 2, 'ev-two');
  await server.ctx.db.query(
    `INSERT INTO events (type, created_by, project, feature_name) VALUES
       ('feature-created', 'test', 'default', 'f1'),
       ('feature-archived', 'test', 'default', 'f1'),
       ('feature-created', 'test', 'other', 'f2')`,
  );
});
afterAll(() => server.close());

const read = (query = '') => server.request('GET', `/api/admin/events${query}`, { token: server.adminToken });

describe('GET /api/admin/events', () => {
  it('lists newest first with the event fields and the total', async () => {
    const res = await read();
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    const ids = res.body.events.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(res.body.totalEvents).toBe(res.body.events.length);
    expect(res.body.events[0]).toEqual({
      id: expect.any(Number),
      type: 'feature-created',
      createdBy: 'test',
      createdByUserId: null,
      createdAt: expect.any(String),
      project: 'other',
      featureName: 'f2',
      environment: null,
      data: null,
      preData: null,
    });
  });

  it('records who made a change', async () => {
    const res = await read('?type=user-created');
    const byAdmin = res.body.events.find((e: any) => e.data.username === 'ev-one');
    expect(byAdmin).toMatchObject({ createdBy: 'admin', createdByUserId: null });
    const pats = await read('?type=pat-created');
    const own = pats.body.events.find((e: any) => e.createdBy === 'ev-two');
    expect(own.createdByUserId).toBeGreaterThan(0);
  });

  it('filters by type, project and feature', async () => {
    expect((await read('?type=feature-created')).body.totalEvents).toBe(2);
    expect((await read('?project=default')).body.totalEvents).toBe(2);
    expect((await read('?feature=f1')).body.events.map((e: any) => e.type)).toEqual([
      'feature-archived',
      'feature-created',
    ]);
    expect((await read('?feature=f1&type=feature-created')).body.totalEvents).toBe(1);
  });

  it('pages with limit and offset', async () => {
    const all = await read();
    const page = await read('?limit=2&offset=1');
    expect(page.body.events.map((e: any) => e.id)).toEqual(all.body.events.slice(1, 3).map((e: any) => e.id));
    expect(page.body.totalEvents).toBe(all.body.totalEvents);
    expect((await read('?limit=0')).status).toBe(400);
    expect((await read('?limit=5000')).status).toBe(400);
  });

  it('refuses an offset beyond any count of events with 400 naming it, not a 500', async () => {
    const res = await read('?offset=99999999999999999999');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'ValidationError', details: [{ path: 'query.offset' }] });
    expect((await read(`?offset=${Number.MAX_SAFE_INTEGER}`)).body.events).toEqual([]);
  });

  it('never contains a secret', async () => {
    const res = await read('?limit=1000');
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/scrypt\$|user:[0-9a-f]{20}|\.[0-9a-f]{56}/);
    expect(text).not.toContain('password_hash');
  });

  it('is readable by a Viewer and needs credentials', async () => {
    const viewer = await createUser(server, 3);
    expect((await server.request('GET', '/api/admin/events', { token: viewer.pat })).status).toBe(200);
    expect((await server.request('GET', '/api/admin/events')).status).toBe(401);
  });
});

describe('GET /api/admin/events/:featureName', () => {
  const readFeature = (query = '') =>
    server.request('GET', `/api/admin/events/busy${query}`, { token: server.adminToken });

  beforeAll(async () => {
    // A flag changed 1,100 times: its history must come a page at a time, as the event list does.
    await server.ctx.db.query(
      `INSERT INTO events (type, created_by, project, feature_name, data)
       SELECT 'feature-metadata-updated', 'test', 'default', 'busy', jsonb_build_object('n', n)
         FROM generate_series(1, 1100) AS n`,
    );
  });

  it('answers the newest 100 by default, with how many there are in all', async () => {
    const res = await readFeature();
    expect(res.status).toBe(200);
    expect(res.body.toggleName).toBe('busy');
    expect(res.body.totalEvents).toBe(1100);
    expect(res.body.events).toHaveLength(100);
    expect(res.body.events.map((e: any) => e.data.n)).toEqual(
      Array.from({ length: 100 }, (_, i) => 1100 - i),
    );
  });

  it('pages with limit (at most 1000) and offset', async () => {
    const page = await readFeature('?limit=1000&offset=1000');
    expect(page.body.totalEvents).toBe(1100);
    expect(page.body.events.map((e: any) => e.data.n)).toEqual(
      Array.from({ length: 100 }, (_, i) => 100 - i),
    );
    expect((await readFeature('?limit=1000')).body.events).toHaveLength(1000);
    for (const query of ['?limit=1001', '?limit=0', '?offset=-1']) {
      const res = await readFeature(query);
      expect(res.status, query).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
  });

  it('answers none for a name never used', async () => {
    const res = await server.request('GET', '/api/admin/events/never-used', { token: server.adminToken });
    expect(res.body).toEqual({ version: 1, toggleName: 'never-used', events: [], totalEvents: 0 });
  });
});
