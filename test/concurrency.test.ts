import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from './requests.js';
import {
  countEvents,
  createFeature,
  createUser,
  type Reply,
  startTestServer,
  type TestServer,
} from './server.js';

// Many requests at once, as clients send them. On the embedded database transactions run one at a
// time; on PostgreSQL (DATABASE_URL) they interleave, which is where these races can be lost.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function all<T>(n: number, send: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => send(i)));
}

/** Exactly one request created the thing; every other one got the friendly 409 of a later request. */
function expectOneCreated(replies: Reply[], message: string | RegExp): void {
  const created = replies.filter((r) => r.status === 201);
  const refused = replies.filter((r) => r.status !== 201);
  expect(created, replies.map((r) => `${r.status} ${r.text}`).join('\n')).toHaveLength(1);
  for (const r of refused) {
    expect(r.status, r.text).toBe(409);
    expect(Object.keys(r.body).sort()).toEqual(['id', 'message', 'name']);
    expect(r.body).toEqual({ id: expect.any(String), name: 'NameExistsError', message: expect.any(String) });
    expect(r.body.message).toMatch(message);
  }
}

describe('50 creates of one name at once: one 201, and 49 times the friendly 409', () => {
  const N = 50;

  it('a feature', async () => {
    const before = await countEvents(server, 'feature-created');
    const replies = await all(N, () =>
      server.request('POST', '/api/admin/projects/default/features', {
        ...admin(server),
        body: { name: 'racer' },
      }),
    );
    expectOneCreated(replies, 'A feature named "racer" already exists (in the project "default").');
    expect(await countEvents(server, 'feature-created')).toBe(before + 1);
  });

  it('a project', async () => {
    const replies = await all(N, () =>
      server.request('POST', '/api/admin/projects', { ...admin(server), body: { id: 'race', name: 'Race' } }),
    );
    expectOneCreated(replies, 'A project with the id "race" already exists.');
    expect(await countEvents(server, 'project-created')).toBe(1);
  });

  it('a segment', async () => {
    const replies = await all(N, () =>
      server.request('POST', '/api/admin/segments', {
        ...admin(server),
        body: { name: 'racers', constraints: [] },
      }),
    );
    expectOneCreated(replies, /^A segment named "racers" already exists \(id \d+\): choose another name\.$/);
    expect(await countEvents(server, 'segment-created')).toBe(1);
  });

  it('a context field', async () => {
    const replies = await all(N, () =>
      server.request('POST', '/api/admin/context', { ...admin(server), body: { name: 'lane' } }),
    );
    expectOneCreated(replies, 'A context field named "lane" already exists.');
    expect(await countEvents(server, 'context-field-created')).toBe(1);
  });

  it('a tag type', async () => {
    const replies = await all(N, () =>
      server.request('POST', '/api/admin/tag-types', { ...admin(server), body: { name: 'heat' } }),
    );
    expectOneCreated(replies, 'A tag type named "heat" already exists.');
    expect(await countEvents(server, 'tag-type-created')).toBe(1);
  });
});

describe('E4 updates of one role at once', () => {
  it('leave the permissions of exactly one request, and one event per change, each starting where the one before ended', async () => {
    const created = await server.request('POST', '/api/admin/roles', {
      ...admin(server),
      body: { name: 'Contested', type: 'root-custom', permissions: [{ name: 'CREATE_TAG_TYPE' }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.roles.id;
    const sets = [
      ['CREATE_CONTEXT_FIELD'],
      ['UPDATE_CONTEXT_FIELD', 'DELETE_CONTEXT_FIELD'],
      ['CREATE_SEGMENT'],
      ['UPDATE_SEGMENT', 'DELETE_SEGMENT'],
      ['CREATE_TAG_TYPE', 'UPDATE_TAG_TYPE'],
      ['DELETE_TAG_TYPE'],
      ['UPDATE_APPLICATION'],
      ['CREATE_CONTEXT_FIELD', 'CREATE_SEGMENT', 'CREATE_TAG_TYPE'],
    ].map((names) => names.map((name) => ({ name })).sort((a, b) => a.name.localeCompare(b.name)));
    const replies = await all(sets.length, (i) =>
      server.request('PUT', `/api/admin/roles/${id}`, {
        ...admin(server),
        body: { name: 'Contested', description: `set ${i}`, type: 'root-custom', permissions: sets[i] },
      }),
    );
    for (const r of replies) expect(r.status, r.text).toBe(200);

    const role = await server.request('GET', `/api/admin/roles/${id}`, admin(server));
    const winner = Number(/^set (\d+)$/.exec(role.body.description)![1]);
    expect(role.body.permissions).toEqual(sets[winner]);

    const res = await server.request('GET', '/api/admin/events?type=role-updated', admin(server));
    const events = (res.body.events as Array<{ id: number; data: any; preData: any }>)
      .filter((e) => e.data.id === id)
      .sort((a, b) => a.id - b.id);
    expect(events).toHaveLength(sets.length);
    expect(events[0]!.preData.permissions).toEqual([{ name: 'CREATE_TAG_TYPE' }]);
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.preData, `event ${i} starts where event ${i - 1} ended`).toEqual(events[i - 1]!.data);
    }
    expect(events.at(-1)!.data).toMatchObject({
      description: role.body.description,
      permissions: sets[winner],
    });
  });
});

describe('revive and delete of one archived feature at once', () => {
  it('a revival and a deletion for good of an archived feature: exactly one of them happens', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `contested-${i}`);
    for (const name of names) {
      await createFeature(server, name);
      const archived = await server.request(
        'DELETE',
        `/api/admin/projects/default/features/${name}`,
        admin(server),
      );
      expect(archived.status).toBe(202);
    }
    const outcomes = await Promise.all(
      names.map(async (name) => {
        const [revive, remove] = await Promise.all([
          server.request('POST', `/api/admin/archive/revive/${name}`, admin(server)),
          server.request('DELETE', `/api/admin/archive/${name}`, admin(server)),
        ]);
        return { name, revive, remove };
      }),
    );
    for (const { name, revive, remove } of outcomes) {
      const read = await server.request('GET', `/api/admin/projects/default/features/${name}`, admin(server));
      const events = await server.request('GET', `/api/admin/events?feature=${name}`, admin(server));
      const types = (events.body.events as Array<{ type: string }>).map((e) => e.type).reverse();
      if (revive.status < 300) {
        expect(remove.status, `${name}: ${remove.text}`).toBe(409);
        expect(read.status).toBe(200);
        expect(types).toEqual(['feature-created', 'feature-archived', 'feature-revived']);
      } else {
        expect(revive.status, `${name}: ${revive.text}`).toBe(404);
        expect(remove.status).toBeLessThan(300);
        expect(read.status).toBe(404);
        expect(types).toEqual(['feature-created', 'feature-archived', 'feature-deleted']);
      }
    }
  });
});

describe('personal access tokens made at once', () => {
  it('never exceed the limit of 10 per user', async () => {
    const user = await createUser(server, 3); // holds one PAT already
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const replies = await all(20, (i) =>
      server.request('POST', '/api/admin/user/tokens', {
        token: user.pat,
        body: { description: `pat ${i}`, expiresAt },
      }),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(9);
    for (const r of replies.filter((r) => r.status !== 201)) {
      expect(r.status, r.text).toBe(400);
      expect(r.body.message).toContain('at most 10 personal access tokens');
    }
    const list = await server.request('GET', '/api/admin/user/tokens', { token: user.pat });
    expect(list.body.pats).toHaveLength(10);
  });
});
