import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('POST /api/admin/projects', () => {
  it('creates a project linked to the enabled environments: 201 and a project-created event', async () => {
    const before = await countEvents(server, 'project-created');
    const res = await server.request('POST', '/api/admin/projects', {
      ...admin(server),
      body: { id: 'web-shop', name: 'Web shop', description: 'The shop' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: 'web-shop',
      name: 'Web shop',
      description: 'The shop',
      mode: 'open',
    });
    expect(await countEvents(server, 'project-created')).toBe(before + 1);
    const read = await server.request('GET', '/api/admin/projects/web-shop', admin(server));
    expect(read.body.environments).toEqual([{ environment: 'development' }, { environment: 'production' }]);
    const list = await server.request('GET', '/api/admin/projects', admin(server));
    expect(list.body.projects.map((p: { id: string }) => p.id)).toEqual(['default', 'web-shop']);
  });

  it('answers 409 for a taken id and 400 for a bad id or name', async () => {
    expect(
      (
        await server.request('POST', '/api/admin/projects', {
          ...admin(server),
          body: { id: 'default', name: 'x' },
        })
      ).status,
    ).toBe(409);
    for (const body of [
      { id: 'has space', name: 'x' },
      { id: 'ok' },
      { id: '', name: 'x' },
      { name: 'x' },
      { id: 'a'.repeat(101), name: 'x' },
    ]) {
      const res = await server.request('POST', '/api/admin/projects', { ...admin(server), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('lets an Editor create a project, of which they become the Owner; a Viewer gets 403', async () => {
    const editor = await createUser(server, 2);
    const res = await server.request('POST', '/api/admin/projects', {
      token: editor.pat,
      body: { id: 'editors', name: 'E' },
    });
    expect(res.status).toBe(201);
    const me = await server.request('GET', '/api/admin/user', { token: editor.pat });
    expect(me.body.permissions).toContainEqual({ permission: 'UPDATE_PROJECT', project: 'editors' });
    const viewer = await createUser(server, 3);
    expect(
      (
        await server.request('POST', '/api/admin/projects', {
          token: viewer.pat,
          body: { id: 'v', name: 'V' },
        })
      ).status,
    ).toBe(403);
  });

  it('answers 404 for an unknown project', async () => {
    expect((await server.request('GET', '/api/admin/projects/nope', admin(server))).status).toBe(404);
  });
});
