import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupMembers } from '../../test/access.js';
import { admin } from '../../test/requests.js';
import {
  countEvents,
  createUser,
  isPostgres,
  startTestServer,
  type TestServer,
  writeDirectly,
} from '../../test/server.js';

// Every test starts from a new database whose only Admin user is the default one (id 1).
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

const DEFAULT_ADMIN = 1;

const demote = (id: number, rootRole: number | string = 'Editor') =>
  server.request('PUT', `/api/admin/user-admin/${id}`, { ...admin(server), body: { rootRole } });
const remove = (id: number) => server.request('DELETE', `/api/admin/user-admin/${id}`, admin(server));

async function rootRoleOf(id: number): Promise<number> {
  const res = await server.request('GET', `/api/admin/user-admin/${id}`, admin(server));
  expect(res.status).toBe(200);
  return res.body.rootRole;
}

async function adminGroup(userIds: number[], name = 'Administrators'): Promise<number> {
  const res = await server.request('POST', '/api/admin/groups', {
    ...admin(server),
    body: { name, rootRole: 1, users: groupMembers(...userIds) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

function expectLastAdminRefusal(res: { status: number; body: { name: string; message: string } }) {
  expect(res.status).toBe(409);
  expect(res.body.name).toBe('NameExistsError');
  expect(res.body.message).toMatch(/last Admin/);
}

describe('the last Admin user', () => {
  it('cannot be demoted or deleted, and the refusal changes nothing; the admin token does not count', async () => {
    const events = await countEvents(server);
    for (const res of [
      await demote(DEFAULT_ADMIN),
      await demote(DEFAULT_ADMIN, 3),
      await remove(DEFAULT_ADMIN),
    ]) {
      expectLastAdminRefusal(res);
    }
    expect(await rootRoleOf(DEFAULT_ADMIN)).toBe(1);
    expect(await countEvents(server)).toBe(events);
    // Changes that leave the role alone still go through.
    const renamed = await server.request('PUT', `/api/admin/user-admin/${DEFAULT_ADMIN}`, {
      ...admin(server),
      body: { name: 'The admin', rootRole: 'Admin' },
    });
    expect(renamed.status).toBe(200);
  });

  it('can be demoted or deleted once another user is an Admin, and then that one is the last', async () => {
    const second = await createUser(server, 1);
    expect((await demote(DEFAULT_ADMIN)).status).toBe(200);
    expectLastAdminRefusal(await demote(second.id));
    expectLastAdminRefusal(await remove(second.id));
    const third = await createUser(server, 'Admin');
    expect((await remove(second.id)).status).toBe(200);
    expectLastAdminRefusal(await remove(third.id));
  });

  it('an Admin through a group counts, and the group cannot lose its last Admin member, its role, or itself', async () => {
    const member = await createUser(server, 3);
    const group = await adminGroup([member.id]);
    // The member is an Admin through the group: the default admin may go.
    expect((await demote(DEFAULT_ADMIN, 'Viewer')).status).toBe(200);
    expect(
      (await server.request('GET', '/api/admin/user-admin', { token: member.pat })).status,
      'the member acts as an Admin',
    ).toBe(200);

    const events = await countEvents(server);
    const put = (body: Record<string, unknown>) =>
      server.request('PUT', `/api/admin/groups/${group}`, {
        ...admin(server),
        body: { name: 'Administrators', ...body },
      });
    expectLastAdminRefusal(await put({ rootRole: 1, users: [] }));
    expectLastAdminRefusal(await put({ rootRole: 2, users: groupMembers(member.id) }));
    expectLastAdminRefusal(await put({ users: groupMembers(member.id) }));
    expectLastAdminRefusal(await server.request('DELETE', `/api/admin/groups/${group}`, admin(server)));
    expectLastAdminRefusal(await remove(member.id));
    expect(await countEvents(server)).toBe(events);

    // With another Admin, all of it is allowed.
    const other = await createUser(server, 1);
    expect((await put({ rootRole: 1, users: groupMembers(other.id) })).status).toBe(200);
    expect((await remove(member.id)).status).toBe(200);
    expect((await server.request('DELETE', `/api/admin/groups/${group}`, admin(server))).status).toBe(200);
    expectLastAdminRefusal(await remove(other.id));
  });

  it('a custom root role holding ADMIN counts, and cannot lose ADMIN while it makes the last Admin', async () => {
    const created = await server.request('POST', '/api/admin/roles', {
      ...admin(server),
      body: { name: 'Super', type: 'root-custom', permissions: [{ name: 'ADMIN' }] },
    });
    expect(created.status).toBe(201);
    const role = created.body.roles.id;
    const holder = await createUser(server, role);
    expect((await demote(DEFAULT_ADMIN)).status).toBe(200);
    const narrowed = await server.request('PUT', `/api/admin/roles/${role}`, {
      ...admin(server),
      body: { name: 'Super', type: 'root-custom', permissions: [{ name: 'CREATE_PROJECT' }] },
    });
    expectLastAdminRefusal(narrowed);
    expectLastAdminRefusal(await demote(holder.id));
    // A change that keeps ADMIN is fine.
    const renamed = await server.request('PUT', `/api/admin/roles/${role}`, {
      ...admin(server),
      body: { name: 'Superuser', type: 'root-custom', permissions: [{ name: 'ADMIN' }] },
    });
    expect(renamed.status).toBe(200);
  });

  it('deleting inactive users leaves an Admin through a group when that is the last one', async () => {
    const member = await createUser(server, 3);
    await adminGroup([member.id]);
    expect((await demote(DEFAULT_ADMIN, 'Viewer')).status).toBe(200);
    await writeDirectly(
      server,
      "UPDATE users SET created_at = now() - interval '200 days', seen_at = now() - interval '200 days' WHERE id = $1",
      [member.id],
    );
    const res = await server.request('POST', '/api/admin/user-admin/inactive/delete', {
      ...admin(server),
      body: { ids: [member.id] },
    });
    expect(res.status).toBe(200);
    expect((await server.request('GET', `/api/admin/user-admin/${member.id}`, admin(server))).status).toBe(
      200,
    );
  });
});

describe('two requests at once cannot each remove one of the last two Admins', () => {
  // On the embedded database transactions run one at a time; PostgreSQL runs them together.
  it.runIf(isPostgres())(
    'demoting or deleting both at once: one succeeds, one is refused, one Admin is left',
    async () => {
      let pair = [await createUser(server, 1), await createUser(server, 1)];
      expect((await demote(DEFAULT_ADMIN)).status).toBe(200);
      for (let round = 0; round < 6; round++) {
        const act = round % 2 === 0 ? demote : remove;
        const replies = await Promise.all(pair.map((u) => act(u.id)));
        expect(replies.map((r) => r.status).sort(), `round ${round}`).toEqual([200, 409]);
        const survivors = [];
        for (const u of pair) {
          const res = await server.request('GET', `/api/admin/user-admin/${u.id}`, admin(server));
          if (res.status === 200 && res.body.rootRole === 1) survivors.push(u);
        }
        expect(survivors, `round ${round}`).toHaveLength(1);
        // Two new Admins, and the survivor steps down: two Admins again for the next round.
        const next = [await createUser(server, 1), await createUser(server, 1)];
        expect((await demote(survivors[0]!.id)).status).toBe(200);
        pair = next;
      }
    },
  );

  it.runIf(isPostgres())('deleting one while the other leaves the Admin group: one is refused', async () => {
    const a = await createUser(server, 1);
    const b = await createUser(server, 3);
    const group = await adminGroup([b.id]);
    expect((await demote(DEFAULT_ADMIN)).status).toBe(200);
    const replies = await Promise.all([
      remove(a.id),
      server.request('PUT', `/api/admin/groups/${group}`, {
        ...admin(server),
        body: { name: 'Administrators', rootRole: 1, users: [] },
      }),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    const count = await server.request('GET', '/api/admin/user-admin', admin(server));
    const directAdmins = count.body.users.filter((u: { rootRole: number }) => u.rootRole === 1).length;
    const groupRead = await server.request('GET', `/api/admin/groups/${group}`, admin(server));
    expect(directAdmins + groupRead.body.users.length).toBe(1);
  });
});
