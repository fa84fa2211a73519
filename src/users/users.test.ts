import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../test/requests.js';
import {
  countEvents,
  createUser,
  lastEvent,
  login,
  STRONG_PASSWORD,
  startTestServer,
  type TestServer,
} from '../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the default admin', () => {
  it('exists on a new database and signs in with admin / unleash4all', async () => {
    const res = await login(server, 'admin', 'unleash4all');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 1, username: 'admin', rootRole: 1 });
  });

  it('is taken from UNLEASH_DEFAULT_ADMIN_* and made only when there are no users', async () => {
    const other = await startTestServer({
      UNLEASH_DEFAULT_ADMIN_USERNAME: 'boss',
      UNLEASH_DEFAULT_ADMIN_PASSWORD: 'Very-Secret-42',
    });
    try {
      expect((await login(other, 'boss', 'Very-Secret-42')).status).toBe(200);
      expect((await login(other, 'admin', 'unleash4all')).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('POST /api/admin/user-admin', () => {
  it('creates a user: 201, Location header, rootRole as an id, and a user-created event', async () => {
    const events = await countEvents(server, 'user-created');
    const res = await server.request('POST', '/api/admin/user-admin', {
      ...admin(server),
      body: {
        username: 'alice',
        email: 'Alice@Example.com',
        name: 'Alice',
        password: STRONG_PASSWORD,
        rootRole: 'Editor',
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`user-admin/${res.body.id}`);
    expect(res.body).toMatchObject({
      username: 'alice',
      email: 'Alice@Example.com',
      name: 'Alice',
      rootRole: 2,
    });
    expect(res.body).not.toHaveProperty('password');
    expect(res.body).not.toHaveProperty('passwordHash');
    expect(await countEvents(server, 'user-created')).toBe(events + 1);

    const read = await server.request('GET', `/api/admin/user-admin/${res.body.id}`, admin(server));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: res.body.id, rootRole: 2 });
  });

  it('refuses a taken username or email (any case) with 400', async () => {
    for (const body of [
      { username: 'ALICE', rootRole: 3 },
      { email: 'alice@example.COM', rootRole: 3 },
    ]) {
      const res = await server.request('POST', '/api/admin/user-admin', { ...admin(server), body });
      expect(res.status).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
  });

  it('needs a username or an email, a known root role and a strong password', async () => {
    const cases: [object, string][] = [
      [{ name: 'Nobody', rootRole: 3 }, 'username or an email'],
      [{ username: 'bob', rootRole: 4 }, 'root role'],
      [{ username: 'bob', rootRole: 'Owner' }, 'root role'],
      [{ username: 'bob', email: 'not-an-email', rootRole: 3 }, 'email'],
      [{ username: 'bob', password: 'password12!', rootRole: 3 }, 'upper-case'],
      [{ username: 'bob', password: 'Passsword12!', rootRole: 3 }, 'three or more times'],
      [{ username: 'bob', password: 'Short1!', rootRole: 3 }, 'at least 10 characters'],
      [{ username: 'bob', password: 'NoDigitsHere!', rootRole: 3 }, 'digit'],
      [{ username: 'bob', password: 'NoSpecial123', rootRole: 3 }, 'special character'],
      [{ username: 'bob', password: '', rootRole: 3 }, 'must not be empty'],
    ];
    for (const [body, words] of cases) {
      const res = await server.request('POST', '/api/admin/user-admin', { ...admin(server), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(words);
    }
  });

  it('refuses a root role id beyond int4 with 400 naming rootRole, on creation and on update', async () => {
    for (const rootRole of [2147483648, -2147483649, 1e20, '2147483648', '99999999999999999999']) {
      const created = await server.request('POST', '/api/admin/user-admin', {
        ...admin(server),
        body: { username: 'huge-role', rootRole },
      });
      expect(created.status, String(rootRole)).toBe(400);
      expect(created.body.details.map((d: { path: string }) => d.path)).toContain('rootRole');
      const updated = await server.request('PUT', '/api/admin/user-admin/1', {
        ...admin(server),
        body: { rootRole },
      });
      expect(updated.status, String(rootRole)).toBe(400);
      expect(updated.body.details.map((d: { path: string }) => d.path)).toContain('rootRole');
    }
    const users = await server.request('GET', '/api/admin/user-admin', admin(server));
    expect(users.body.users.map((u: { username: string }) => u.username)).not.toContain('huge-role');
  });

  it('is for Admins only', async () => {
    const editor = await createUser(server, 2);
    const res = await server.request('POST', '/api/admin/user-admin', {
      token: editor.pat,
      body: { username: 'sneaky', rootRole: 1 },
    });
    expect(res.status).toBe(403);
    expect((await server.request('GET', '/api/admin/user-admin', { token: editor.pat })).status).toBe(403);
  });
});

describe('reading, changing and deleting users', () => {
  it('lists users with the root roles', async () => {
    const res = await server.request('GET', '/api/admin/user-admin', admin(server));
    expect(res.status).toBe(200);
    expect(res.body.users.length).toBeGreaterThan(0);
    expect(res.body.rootRoles.map((r: { name: string }) => r.name)).toEqual(['Admin', 'Editor', 'Viewer']);
  });

  it('answers 404 for an unknown id and 400 for a non-integer one', async () => {
    expect((await server.request('GET', '/api/admin/user-admin/9999', admin(server))).status).toBe(404);
    expect((await server.request('GET', '/api/admin/user-admin/abc', admin(server))).status).toBe(400);
  });

  it('updates name, email and root role, with the previous values in the event', async () => {
    const user = await createUser(server, 3);
    const res = await server.request('PUT', `/api/admin/user-admin/${user.id}`, {
      ...admin(server),
      body: { name: 'Renamed', rootRole: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', rootRole: 2, username: user.username });
    const events = await server.request('GET', '/api/admin/events?type=user-updated&limit=1', admin(server));
    expect(events.body.events[0].data).toMatchObject({ id: user.id, rootRole: 2, name: 'Renamed' });
    expect(events.body.events[0].preData).toMatchObject({ id: user.id, rootRole: 3 });
    // the new root role applies at once: an Editor may read tokens
    expect((await server.request('GET', '/api/admin/api-tokens', { token: user.pat })).status).toBe(200);
  });

  it('deletes a user, whose credentials stop working', async () => {
    const user = await createUser(server, 3);
    const res = await server.request('DELETE', `/api/admin/user-admin/${user.id}`, admin(server));
    expect(res.status).toBe(200);
    expect((await server.request('GET', '/api/admin/user', { token: user.pat })).status).toBe(401);
    expect((await server.request('GET', '/api/admin/user', { cookie: user.cookie })).status).toBe(401);
    expect((await server.request('DELETE', `/api/admin/user-admin/${user.id}`, admin(server))).status).toBe(
      404,
    );
  });
});

describe('GET /api/admin/user', () => {
  it('answers the caller with permissions and feedback', async () => {
    const user = await createUser(server, 2);
    const res = await server.request('GET', '/api/admin/user', { token: user.pat });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, username: user.username, rootRole: 2, isAPI: false });
    const names = res.body.permissions.map((p: { permission: string }) => p.permission);
    expect(names).toContain('CREATE_FEATURE');
    expect(names).not.toContain('ADMIN');
    expect(res.body.feedback).toEqual([]);
  });

  it('answers an admin token as an API user holding ADMIN', async () => {
    const res = await server.request('GET', '/api/admin/user', admin(server));
    expect(res.status).toBe(200);
    expect(res.body.user.isAPI).toBe(true);
    expect(res.body.permissions).toEqual([{ permission: 'ADMIN' }]);
  });
});

describe('passwords set by an admin or by the user', () => {
  it('an Admin sets a password; the old one stops working and sessions end', async () => {
    const user = await createUser(server, 3);
    const res = await server.request('POST', `/api/admin/user-admin/${user.id}/change-password`, {
      ...admin(server),
      body: { password: 'Brand-New-Pass-1' },
    });
    expect(res.status).toBe(200);
    expect((await login(server, user.username, STRONG_PASSWORD)).status).toBe(401);
    expect((await login(server, user.username, 'Brand-New-Pass-1')).status).toBe(200);
    expect((await server.request('GET', '/api/admin/user', { cookie: user.cookie })).status).toBe(401);
  });

  it('an Admin setting a password does what a reset does: the PATs are revoked too, the event recorded', async () => {
    const user = await createUser(server, 2);
    const other = await createUser(server, 2);
    expect((await server.request('GET', '/api/admin/user', { token: user.pat })).status).toBe(200);
    const changed = await countEvents(server, 'user-password-changed');
    const res = await server.request('POST', `/api/admin/user-admin/${user.id}/change-password`, {
      ...admin(server),
      body: { password: 'Brand-New-Pass-2' },
    });
    expect(res.status).toBe(200);
    for (const credentials of [{ token: user.pat }, { cookie: user.cookie }]) {
      const me = await server.request('GET', '/api/admin/user', credentials);
      expect(me.status).toBe(401);
      expect(me.body.name).toBe('AuthenticationRequired');
    }
    const session = await login(server, user.username, 'Brand-New-Pass-2');
    const pats = await server.request('GET', '/api/admin/user/tokens', { cookie: session.cookie });
    expect(pats.body.pats).toEqual([]);
    expect(await countEvents(server, 'user-password-changed')).toBe(changed + 1);
    const event = await lastEvent(server, 'user-password-changed');
    expect(event.data).toMatchObject({ id: user.id, username: user.username });
    expect(JSON.stringify(event)).not.toContain('Brand-New-Pass-2');
    // Another user's credentials are not touched.
    expect((await server.request('GET', '/api/admin/user', { token: other.pat })).status).toBe(200);
    expect((await server.request('GET', '/api/admin/user', { cookie: other.cookie })).status).toBe(200);
  });

  it('a user changes their own password with the old one', async () => {
    const user = await createUser(server, 3);
    const wrong = await server.request('POST', '/api/admin/user/change-password', {
      token: user.pat,
      body: { password: 'Another-Pass-2', confirmPassword: 'Another-Pass-2', oldPassword: 'wrong' },
    });
    expect(wrong.status).toBe(400);
    const ok = await server.request('POST', '/api/admin/user/change-password', {
      token: user.pat,
      body: { password: 'Another-Pass-2', confirmPassword: 'Another-Pass-2', oldPassword: STRONG_PASSWORD },
    });
    expect(ok.status).toBe(200);
    expect((await login(server, user.username, 'Another-Pass-2')).status).toBe(200);
  });
});
