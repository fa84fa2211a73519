import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../test/requests.js';
import {
  countEvents,
  isPostgres,
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

const create = (body: Record<string, unknown>) =>
  server.request('POST', '/api/admin/user-admin', {
    ...admin(server),
    body: { rootRole: 'Viewer', password: STRONG_PASSWORD, ...body },
  });

async function created(body: Record<string, unknown>): Promise<number> {
  const res = await create(body);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

function expectTaken(res: { status: number; body: any }, field: 'username' | 'email') {
  expect(res.status).toBe(409);
  expect(res.body.name).toBe('NameExistsError');
  expect(res.body.details).toEqual([{ path: field, message: expect.any(String) }]);
  expect(res.body.message).toMatch(field === 'username' ? /username/ : /e-mail/);
}

async function usersCount(): Promise<number> {
  return (await server.request('GET', '/api/admin/user-admin', admin(server))).body.users.length;
}

async function inviteLink(): Promise<string> {
  const res = await server.request('POST', '/api/admin/invite-link/tokens', {
    ...admin(server),
    body: { name: 'Join', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
  });
  expect(res.status).toBe(201);
  return res.body.secret;
}

describe('a login names one user: no username is another user’s e-mail, nor the other way round', () => {
  it('refuses a new user whose username is another user’s e-mail, whatever its case; sign-in still finds the owner', async () => {
    const owner = await created({ username: 'ann', email: 'ann@example.com' });
    const users = await usersCount();
    const events = await countEvents(server, 'user-created');
    for (const username of ['ann@example.com', 'ANN@Example.COM', ' ann@example.com ']) {
      expectTaken(await create({ username, email: 'someone.else@example.com' }), 'username');
    }
    expect(await usersCount()).toBe(users);
    expect(await countEvents(server, 'user-created')).toBe(events);
    const signedIn = await login(server, 'ann@example.com', STRONG_PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.id).toBe(owner);
  });

  it('refuses a new user whose e-mail is another user’s username', async () => {
    await created({ username: 'carl@corp.example', email: 'carl@home.example' });
    expectTaken(await create({ username: 'carla', email: 'Carl@Corp.Example' }), 'email');
    expectTaken(await create({ email: 'carl@corp.example' }), 'email');
  });

  it('refuses changing a user’s e-mail to another user’s username', async () => {
    await created({ username: 'dora@corp.example' });
    const other = await created({ username: 'dan', email: 'dan@example.com' });
    const events = await countEvents(server, 'user-updated');
    const res = await server.request('PUT', `/api/admin/user-admin/${other}`, {
      ...admin(server),
      body: { email: 'DORA@corp.example' },
    });
    expectTaken(res, 'email');
    expect(await countEvents(server, 'user-updated')).toBe(events);
    const read = await server.request('GET', `/api/admin/user-admin/${other}`, admin(server));
    expect(read.body.email).toBe('dan@example.com');
  });

  it('lets one user have the same username and e-mail, and keep it through changes', async () => {
    const id = await created({ username: 'eve@example.com', email: 'Eve@Example.com' });
    const res = await server.request('PUT', `/api/admin/user-admin/${id}`, {
      ...admin(server),
      body: { email: 'eve@example.com', name: 'Eve' },
    });
    expect(res.status).toBe(200);
  });

  it('a login freed by a deleted or changed user can be taken', async () => {
    const gone = await created({ username: 'fay', email: 'fay@example.com' });
    expect((await server.request('DELETE', `/api/admin/user-admin/${gone}`, admin(server))).status).toBe(200);
    await created({ username: 'fay@example.com' });
    const moved = await created({ username: 'gus', email: 'gus@example.com' });
    const changed = await server.request('PUT', `/api/admin/user-admin/${moved}`, {
      ...admin(server),
      body: { email: 'gus@elsewhere.example' },
    });
    expect(changed.status).toBe(200);
    await created({ username: 'gus@example.com' });
  });

  it('keeps the same-field duplicates at 400 as before', async () => {
    await created({ username: 'hal', email: 'hal@example.com' });
    expect((await create({ username: 'HAL' })).status).toBe(400);
    expect((await create({ email: 'Hal@example.com' })).status).toBe(400);
  });

  it('refuses an invite sign-up with a username that is someone’s e-mail, or an e-mail that is someone’s username', async () => {
    await created({ username: 'ida@corp.example', email: 'ida@example.com' });
    const secret = await inviteLink();
    const users = await usersCount();
    const signUp = (body: Record<string, unknown>) =>
      server.request('POST', `/invite/${secret}/signup`, {
        body: { name: 'Joiner', password: STRONG_PASSWORD, ...body },
      });
    expectTaken(await signUp({ email: 'joiner@example.com', username: 'IDA@example.com' }), 'username');
    expectTaken(await signUp({ email: 'ida@corp.example' }), 'email');
    expect(await usersCount()).toBe(users);
    expect((await signUp({ email: 'joiner@example.com', username: 'joiner' })).status).toBe(201);
  });

  it.runIf(isPostgres())(
    'two requests at once, one taking a login as username and one as e-mail: one is refused',
    async () => {
      for (let round = 0; round < 5; round++) {
        const login = `race${round}@example.com`;
        const replies = await Promise.all([
          create({ username: login, email: `first${round}@example.com` }),
          create({ username: `second${round}`, email: login }),
        ]);
        expect(replies.map((r) => r.status).sort(), `round ${round}`).toEqual([201, 409]);
        expect(replies.find((r) => r.status === 409)!.body.name).toBe('NameExistsError');
      }
    },
  );
});
