import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../test/requests.js';
import {
  countEvents,
  createUser,
  lastEvent,
  STRONG_PASSWORD,
  startTestServer,
  type TestServer,
  type TestUser,
  writeDirectly,
} from '../../test/server.js';

let server: TestServer;
let editor: TestUser;
let viewer: TestUser;

const LONG_AGO = "now() - interval '200 days'";

/** Makes a user look as if they had not signed in for 200 days. */
async function age(id: number, seen: 'never' | 'long ago' = 'long ago'): Promise<void> {
  await writeDirectly(
    server,
    `UPDATE users SET created_at = ${LONG_AGO}, seen_at = ${seen === 'never' ? 'NULL' : LONG_AGO} WHERE id = $1`,
    [id],
  );
}

async function newUser(body: Record<string, unknown>): Promise<number> {
  const res = await server.request('POST', '/api/admin/user-admin', { ...admin(server), body });
  expect(res.status).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  server = await startTestServer();
  editor = await createUser(server, 2);
  viewer = await createUser(server, 3);
});
afterAll(() => server.close());

describe('GET /api/admin/user-admin/search', () => {
  it('finds users by part of the name, username or email, case-insensitively, in a short shape', async () => {
    const id = await newUser({
      username: 'zed.search',
      email: 'Zora.Q@Example.org',
      name: 'Zebulon Quux',
      rootRole: 3,
    });
    for (const q of ['bulon', 'ZED.S', 'zora.q@example', 'quux']) {
      const res = await server.request(
        'GET',
        `/api/admin/user-admin/search?q=${encodeURIComponent(q)}`,
        admin(server),
      );
      expect(res.status, q).toBe(200);
      expect(res.body, q).toEqual([
        {
          id,
          name: 'Zebulon Quux',
          username: 'zed.search',
          email: 'Zora.Q@Example.org',
          imageUrl: expect.stringContaining('gravatar.com'),
          seenAt: null,
          accountType: 'User',
        },
      ]);
    }
  });

  it('leaves out a missing name or email, and lists nobody for fewer than 2 characters', async () => {
    const res = await server.request('GET', '/api/admin/user-admin/search?q=admin', admin(server));
    expect(res.body).toEqual([expect.objectContaining({ id: 1, username: 'admin' })]);
    expect(res.body[0]).not.toHaveProperty('email');
    expect(res.body[0]).not.toHaveProperty('name');
    expect((await server.request('GET', '/api/admin/user-admin/search?q=a', admin(server))).body).toEqual([]);
    expect((await server.request('GET', '/api/admin/user-admin/search', admin(server))).body).toEqual([]);
  });

  it('takes % and _ literally', async () => {
    expect(
      (await server.request('GET', '/api/admin/user-admin/search?q=%25%25', admin(server))).body,
    ).toEqual([]);
    await newUser({ username: 'under_score', rootRole: 3 });
    const res = await server.request('GET', '/api/admin/user-admin/search?q=r_s', admin(server));
    expect(res.body.map((u: { username: string }) => u.username)).toEqual(['under_score']);
  });

  it('is open to every signed-in user (as Unleash), not to callers without credentials', async () => {
    expect(
      (await server.request('GET', '/api/admin/user-admin/search?q=zed', { token: viewer.pat })).status,
    ).toBe(200);
    expect(
      (await server.request('GET', '/api/admin/user-admin/search?q=zed', { cookie: editor.cookie })).status,
    ).toBe(200);
    expect((await server.request('GET', '/api/admin/user-admin/search?q=zed')).status).toBe(401);
    const long = await server.request(
      'GET',
      `/api/admin/user-admin/search?q=${'x'.repeat(256)}`,
      admin(server),
    );
    expect(long.status).toBe(400);
    expect(long.body.name).toBe('ValidationError');
  });
});

describe('GET /api/admin/user-admin/access', () => {
  it('lists every user with the root role and every group with its members, for any signed-in user', async () => {
    const group = await server.request('POST', '/api/admin/groups', {
      ...admin(server),
      body: { name: 'Ops', rootRole: 3, users: [{ user: { id: editor.id } }] },
    });
    expect(group.status).toBe(201);
    const res = await server.request('GET', '/api/admin/user-admin/access', { token: viewer.pat });
    expect(res.status).toBe(200);
    expect(res.body.users).toContainEqual(
      expect.objectContaining({ id: editor.id, username: editor.username, rootRole: 2, accountType: 'User' }),
    );
    expect(res.body.users).toContainEqual(expect.objectContaining({ id: 1, username: 'admin', rootRole: 1 }));
    expect(res.body.users[0]).not.toHaveProperty('loginAttempts');
    expect(res.body.groups).toEqual([
      {
        id: group.body.id,
        name: 'Ops',
        description: null,
        rootRole: 3,
        userCount: 1,
        users: [{ user: { id: editor.id } }],
      },
    ]);
    expect((await server.request('GET', '/api/admin/user-admin/access')).status).toBe(401);
  });
});

describe('GET /api/admin/user-admin/admin-count', () => {
  it('counts admins with and without a password; no service accounts', async () => {
    const before = await server.request('GET', '/api/admin/user-admin/admin-count', admin(server));
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ password: 1, noPassword: 0, service: 0 });
    await newUser({ email: 'sso-admin@example.com', rootRole: 'Admin' });
    await newUser({ username: 'pw-admin', password: STRONG_PASSWORD, rootRole: 1 });
    await newUser({ username: 'pw-editor', password: STRONG_PASSWORD, rootRole: 2 });
    const after = await server.request('GET', '/api/admin/user-admin/admin-count', admin(server));
    expect(after.body).toEqual({ password: 2, noPassword: 1, service: 0 });
  });

  it('is for admins only: Editor and Viewer get 403, no credentials 401', async () => {
    for (const caller of [{ token: editor.pat }, { cookie: viewer.cookie }]) {
      const res = await server.request('GET', '/api/admin/user-admin/admin-count', caller);
      expect(res.status).toBe(403);
      expect(res.body.name).toBe('NoAccessError');
    }
    expect((await server.request('GET', '/api/admin/user-admin/admin-count')).status).toBe(401);
  });
});

describe('POST /api/admin/user-admin/validate-password', () => {
  it('answers 200 for a password that meets the rules, for any signed-in user', async () => {
    for (const caller of [admin(server), { token: viewer.pat }]) {
      const res = await server.request('POST', '/api/admin/user-admin/validate-password', {
        ...caller,
        body: { password: STRONG_PASSWORD },
      });
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
    }
  });

  it('answers 400 ValidationError with one detail per broken rule', async () => {
    const res = await server.request('POST', '/api/admin/user-admin/validate-password', {
      ...admin(server),
      body: { password: 'abc' },
    });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details.map((d: { message: string }) => d.message)).toEqual([
      'The password must be at least 10 characters long.',
      'The password must contain at least one upper-case letter.',
      'The password must contain at least one digit.',
      'The password must contain at least one special character (a symbol or punctuation).',
    ]);
    expect(res.body.details.every((d: { path: string }) => d.path === 'password')).toBe(true);
    const repeated = await server.request('POST', '/api/admin/user-admin/validate-password', {
      ...admin(server),
      body: { password: 'Aaaa1234!xyz' },
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toMatch(/three or more times/);
  });

  it('refuses bad bodies (400), other content types (415) and callers without credentials (401)', async () => {
    for (const body of [{}, { password: 1 }, { password: STRONG_PASSWORD, x: 1 }]) {
      const res = await server.request('POST', '/api/admin/user-admin/validate-password', {
        ...admin(server),
        body,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const text = await server.request('POST', '/api/admin/user-admin/validate-password', {
      ...admin(server),
      body: 'x',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    const none = await server.request('POST', '/api/admin/user-admin/validate-password', {
      body: { password: STRONG_PASSWORD },
    });
    expect(none.status).toBe(401);
  });
});

describe('inactive users', () => {
  it('lists users unseen for 180 days (or never seen and made that long ago) without a PAT used since', async () => {
    const never = await createUser(server, 3);
    const longAgo = await createUser(server, 3);
    const recentPat = await createUser(server, 3);
    await age(never.id, 'never');
    await age(longAgo.id);
    await age(recentPat.id);
    expect((await server.request('GET', '/api/admin/user', { token: recentPat.pat })).status).toBe(200);

    const res = await server.request('GET', '/api/admin/user-admin/inactive', admin(server));
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    const ids = res.body.inactiveUsers.map((u: { id: number }) => u.id);
    expect(ids).toContain(never.id);
    expect(ids).toContain(longAgo.id);
    expect(ids).not.toContain(recentPat.id);
    expect(ids).not.toContain(editor.id);
    const entry = res.body.inactiveUsers.find((u: { id: number }) => u.id === never.id);
    expect(entry).toEqual({
      id: never.id,
      name: never.username,
      username: never.username,
      email: `${never.username}@example.com`,
      seenAt: null,
      createdAt: expect.any(String),
      patSeenAt: null,
    });
  });

  it('deletes those of the listed ids that are inactive, each with a user-deleted event', async () => {
    const gone = await createUser(server, 3);
    const active = await createUser(server, 3);
    await age(gone.id);
    const events = await countEvents(server, 'user-deleted');
    const res = await server.request('POST', '/api/admin/user-admin/inactive/delete', {
      ...admin(server),
      body: { ids: [gone.id, active.id, 999999] },
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await server.request('GET', `/api/admin/user-admin/${gone.id}`, admin(server))).status).toBe(404);
    expect((await server.request('GET', `/api/admin/user-admin/${active.id}`, admin(server))).status).toBe(
      200,
    );
    expect(await countEvents(server, 'user-deleted')).toBe(events + 1);
    const event = await lastEvent(server, 'user-deleted');
    expect(event.preData).toMatchObject({ id: gone.id, username: gone.username });
    expect(event.preData).not.toHaveProperty('passwordHash');
    const list = await server.request('GET', '/api/admin/user-admin/inactive', admin(server));
    expect(list.body.inactiveUsers.map((u: { id: number }) => u.id)).not.toContain(gone.id);
  });

  it('never deletes the caller', async () => {
    const self = await createUser(server, 1);
    await age(self.id);
    const res = await server.request('POST', '/api/admin/user-admin/inactive/delete', {
      cookie: self.cookie,
      body: { ids: [self.id] },
    });
    expect(res.status).toBe(200);
    expect((await server.request('GET', `/api/admin/user-admin/${self.id}`, admin(server))).status).toBe(200);
  });

  it('is for admins only and refuses bad bodies, changing nothing', async () => {
    const victim = await createUser(server, 3);
    await age(victim.id);
    for (const caller of [{ token: editor.pat }, { cookie: viewer.cookie }]) {
      expect((await server.request('GET', '/api/admin/user-admin/inactive', caller)).status).toBe(403);
      const res = await server.request('POST', '/api/admin/user-admin/inactive/delete', {
        ...caller,
        body: { ids: [victim.id] },
      });
      expect(res.status).toBe(403);
      expect(res.body.name).toBe('NoAccessError');
    }
    expect((await server.request('GET', '/api/admin/user-admin/inactive')).status).toBe(401);
    expect(
      (await server.request('POST', '/api/admin/user-admin/inactive/delete', { body: { ids: [victim.id] } }))
        .status,
    ).toBe(401);
    const bad = [{}, { ids: 'x' }, { ids: ['a'] }, { ids: [-1] }, { ids: [1.5] }, { ids: [victim.id], x: 1 }];
    for (const body of bad) {
      const res = await server.request('POST', '/api/admin/user-admin/inactive/delete', {
        ...admin(server),
        body,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    const tooMany = await server.request('POST', '/api/admin/user-admin/inactive/delete', {
      ...admin(server),
      body: { ids: Array.from({ length: 1001 }, (_, i) => i) },
    });
    expect(tooMany.status).toBe(400);
    const text = await server.request('POST', '/api/admin/user-admin/inactive/delete', {
      ...admin(server),
      body: 'x',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    expect((await server.request('GET', `/api/admin/user-admin/${victim.id}`, admin(server))).status).toBe(
      200,
    );
  });

  it('never deletes the last admin', async () => {
    const users = await server.request('GET', '/api/admin/user-admin', admin(server));
    const admins = users.body.users
      .filter((u: { rootRole: number }) => u.rootRole === 1)
      .map((u: { id: number }) => u.id);
    expect(admins.length).toBeGreaterThan(1);
    for (const id of admins) await age(id);
    const res = await server.request('POST', '/api/admin/user-admin/inactive/delete', {
      ...admin(server),
      body: { ids: admins },
    });
    expect(res.status).toBe(200);
    const count = await server.request('GET', '/api/admin/user-admin/admin-count', admin(server));
    expect(count.body.password + count.body.noPassword).toBe(1);
  });
});
