import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../test/requests.js';
import {
  countEvents,
  createFeature,
  createProject,
  createUser,
  lastEvent,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;
/** Member of alpha, Owner of beta. */
let alphaMember: TestUser;
let betaOwner: TestUser;
const clientToken = `default:development.${'c'.repeat(56)}`;

const base = (project: string) => `/api/admin/projects/${project}/api-tokens`;

async function grant(project: string, role: number, user: TestUser) {
  const res = await server.request('POST', `/api/admin/projects/${project}/access`, {
    ...admin(server),
    body: { roles: [role], users: [user.id], groups: [] },
  });
  expect(res.status, res.text).toBe(200);
}

async function makeToken(project: string, body: Record<string, unknown>, token = server.adminToken) {
  return server.request('POST', base(project), { token, body: { type: 'client', ...body } });
}

beforeAll(async () => {
  server = await startTestServer({ INIT_BACKEND_API_TOKENS: clientToken });
  await createProject(server, 'alpha');
  await createProject(server, 'beta');
  await createFeature(server, 'alpha-flag', 'alpha');
  await createFeature(server, 'default-flag', 'default');
  viewer = await createUser(server, 3);
  editor = await createUser(server, 2);
  alphaMember = await createUser(server, 3);
  betaOwner = await createUser(server, 3);
  await grant('alpha', 5, alphaMember);
  await grant('beta', 4, betaOwner);
});
afterAll(() => server.close());

describe('POST /api/admin/projects/:projectId/api-tokens', () => {
  it('creates a token of that project only: 201, the secret once, read back, api-token-created', async () => {
    const before = await countEvents(server, 'api-token-created');
    const res = await makeToken('alpha', {
      tokenName: 'alpha-sdk',
      type: 'backend',
      environment: 'production',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      tokenName: 'alpha-sdk',
      username: 'alpha-sdk',
      type: 'client',
      environment: 'production',
      project: 'alpha',
      projects: ['alpha'],
      expiresAt: null,
    });
    expect(res.body.secret).toMatch(/^alpha:production\.[0-9a-f]{56}$/);

    expect(await countEvents(server, 'api-token-created')).toBe(before + 1);
    const event = await lastEvent(server, 'api-token-created');
    expect(event).toMatchObject({
      project: 'alpha',
      environment: 'production',
      data: { id: res.body.id, tokenName: 'alpha-sdk', type: 'client', projects: ['alpha'] },
    });
    expect(JSON.stringify(event)).not.toContain(res.body.secret.split('.')[1]);

    const list = await server.request('GET', base('alpha'), admin(server));
    expect(list.status).toBe(200);
    const listed = list.body.tokens.find((t: { id: number }) => t.id === res.body.id);
    expect(listed).toMatchObject({ tokenName: 'alpha-sdk', projects: ['alpha'] });
    expect(listed.secret).toMatch(/^alpha:production\.\*+$/);
    const other = await server.request('GET', base('beta'), admin(server));
    expect(other.body.tokens.map((t: { id: number }) => t.id)).not.toContain(res.body.id);
  });

  it('makes frontend tokens, takes `username` for the name and defaults to development', async () => {
    const res = await makeToken('alpha', { username: 'alpha-web', type: 'FRONTEND' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ tokenName: 'alpha-web', type: 'frontend', environment: 'development' });
    const toggles = await server.request('GET', '/api/frontend', { token: res.body.secret });
    expect(toggles.status).toBe(200);
  });

  it('gives an SDK only the flags of its project', async () => {
    const made = await makeToken('alpha', { tokenName: 'alpha-only', environment: 'development' });
    const res = await server.request('GET', '/api/client/features', { token: made.body.secret });
    expect(res.status).toBe(200);
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual(['alpha-flag']);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const cases = [
      { tokenName: 'x', type: 'admin' },
      { tokenName: 'x', type: 'sideways' },
      { type: 'client' },
      { tokenName: '   ', type: 'client' },
      { tokenName: 'x', type: 'client', environment: 'nowhere' },
      { tokenName: 'x', type: 'client', environment: '*' },
      { tokenName: 'x', type: 'client', expiresAt: '2001-01-01T00:00:00Z' },
      { tokenName: 'x', type: 'client', expiresAt: 'tomorrow' },
      { tokenName: 'x', type: 'client', projects: ['beta'] },
      { tokenName: 'x' },
    ];
    const before = await countEvents(server, 'api-token-created');
    for (const body of cases) {
      const res = await server.request('POST', base('alpha'), { ...admin(server), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    expect(await countEvents(server, 'api-token-created')).toBe(before);
  });

  it('answers 404 for an unknown project and 415 for a body that is not JSON', async () => {
    const missing = await makeToken('nowhere', { tokenName: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
    expect((await server.request('GET', base('nowhere'), admin(server))).status).toBe(404);
    const text = await server.request('POST', base('alpha'), {
      ...admin(server),
      body: 'tokenName=x',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
  });
});

describe('who may use the project token paths', () => {
  it('lets project Members and Owners, Editors and admins in; Viewers and other projects’ members get 403', async () => {
    expect((await makeToken('alpha', { tokenName: 'by-member' }, alphaMember.pat)).status).toBe(201);
    expect((await makeToken('beta', { tokenName: 'by-owner' }, betaOwner.pat)).status).toBe(201);
    expect((await makeToken('beta', { tokenName: 'by-editor' }, editor.pat)).status).toBe(201);
    expect((await server.request('GET', base('alpha'), { token: alphaMember.pat })).status).toBe(200);

    const made = await makeToken('beta', { tokenName: 'beta-kept' });
    const refusals: [string, string, TestUser | string][] = [
      ['GET', base('alpha'), viewer],
      ['POST', base('alpha'), viewer],
      ['DELETE', `${base('beta')}/${made.body.id}`, viewer],
      ['GET', base('beta'), alphaMember],
      ['POST', base('beta'), alphaMember],
      ['DELETE', `${base('beta')}/${made.body.id}`, alphaMember],
      ['GET', base('alpha'), clientToken],
    ];
    for (const [method, url, who] of refusals) {
      const res = await server.request(method, url, {
        token: typeof who === 'string' ? who : who.pat,
        ...(method === 'POST' ? { body: { tokenName: 'no', type: 'client' } } : {}),
      });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.name).toBe('NoAccessError');
    }
    expect((await server.request('GET', base('alpha'))).status).toBe(401);
    expect(
      (await server.request('POST', base('alpha'), { body: { tokenName: 'x', type: 'client' } })).status,
    ).toBe(401);
    const still = await server.request('GET', base('beta'), admin(server));
    expect(still.body.tokens.map((t: { id: number }) => t.id)).toContain(made.body.id);
  });
});

describe('DELETE /api/admin/projects/:projectId/api-tokens/:token', () => {
  it('deletes by secret or id: 200, the token stops working at once, api-token-deleted with preData', async () => {
    const made = await makeToken('alpha', { tokenName: 'doomed' });
    expect((await server.request('GET', '/api/client/features', { token: made.body.secret })).status).toBe(
      200,
    );
    const before = await countEvents(server, 'api-token-deleted');
    const res = await server.request('DELETE', `${base('alpha')}/${encodeURIComponent(made.body.secret)}`, {
      token: alphaMember.pat,
    });
    expect(res.status).toBe(200);
    expect(await countEvents(server, 'api-token-deleted')).toBe(before + 1);
    const event = await lastEvent(server, 'api-token-deleted');
    expect(event).toMatchObject({
      project: 'alpha',
      environment: 'development',
      createdBy: alphaMember.username,
      preData: { id: made.body.id, tokenName: 'doomed', type: 'client', projects: ['alpha'] },
    });
    expect((await server.request('GET', '/api/client/features', { token: made.body.secret })).status).toBe(
      401,
    );
    const list = await server.request('GET', base('alpha'), admin(server));
    expect(list.body.tokens.map((t: { id: number }) => t.id)).not.toContain(made.body.id);

    const byId = await makeToken('alpha', { tokenName: 'doomed-by-id' });
    expect((await server.request('DELETE', `${base('alpha')}/${byId.body.id}`, admin(server))).status).toBe(
      200,
    );
    expect((await server.request('GET', '/api/client/features', { token: byId.body.secret })).status).toBe(
      401,
    );
  });

  it('answers 404 for another project’s token, an unknown token or project; 403 for a token of several projects', async () => {
    const betaToken = await makeToken('beta', { tokenName: 'beta-only' });
    for (const url of [
      `${base('alpha')}/${betaToken.body.id}`,
      `${base('alpha')}/${encodeURIComponent(betaToken.body.secret)}`,
      `${base('alpha')}/999999`,
      `${base('alpha')}/2147483648`,
      `${base('nowhere')}/${betaToken.body.id}`,
    ]) {
      const res = await server.request('DELETE', url, admin(server));
      expect(res.status, url).toBe(404);
      expect(res.body.name).toBe('NotFoundError');
    }
    expect(
      (await server.request('GET', '/api/client/features', { token: betaToken.body.secret })).status,
    ).toBe(200);

    const shared = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: { tokenName: 'alpha-and-beta', type: 'client', projects: ['alpha', 'beta'] },
    });
    const listed = await server.request('GET', base('alpha'), admin(server));
    expect(listed.body.tokens.map((t: { id: number }) => t.id)).toContain(shared.body.id);
    const res = await server.request('DELETE', `${base('alpha')}/${shared.body.id}`, admin(server));
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('beta');
    expect((await server.request('GET', '/api/client/features', { token: shared.body.secret })).status).toBe(
      200,
    );
  });
});

describe('GET /api/admin/api-tokens/:name', () => {
  it('answers {tokens} with every token of that name the caller may read', async () => {
    await makeToken('alpha', { tokenName: 'twin' });
    await makeToken('beta', { tokenName: 'twin', type: 'frontend' });
    const res = await server.request('GET', '/api/admin/api-tokens/twin', admin(server));
    expect(res.status).toBe(200);
    expect(res.body.tokens).toHaveLength(2);
    expect(res.body.tokens.map((t: { projects: string[] }) => t.projects[0]).sort()).toEqual([
      'alpha',
      'beta',
    ]);
    expect(res.body.tokens.every((t: { secret: string }) => t.secret.endsWith('*'))).toBe(true);

    const none = await server.request('GET', '/api/admin/api-tokens/nobody-has-this-name', admin(server));
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ tokens: [] });

    const byEditor = await server.request('GET', '/api/admin/api-tokens/admin', { token: editor.pat });
    expect(byEditor.status).toBe(200);
    expect(byEditor.body.tokens.every((t: { type: string }) => t.type !== 'admin')).toBe(true);
    expect((await server.request('GET', '/api/admin/api-tokens/twin', { token: viewer.pat })).status).toBe(
      403,
    );
    expect((await server.request('GET', '/api/admin/api-tokens/twin')).status).toBe(401);
  });
});

describe('PUT /api/admin/api-tokens/:token', () => {
  const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

  it('changes the expiry: 200, read back, api-token-updated with before and after', async () => {
    const made = await makeToken('alpha', { tokenName: 'renewed', expiresAt: inHours(1) });
    const expiresAt = inHours(48);
    const before = await countEvents(server, 'api-token-updated');
    const res = await server.request('PUT', `/api/admin/api-tokens/${made.body.id}`, {
      ...admin(server),
      body: { expiresAt },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('');
    const read = await server.request('GET', '/api/admin/api-tokens/renewed', admin(server));
    expect(read.body.tokens[0].expiresAt).toBe(expiresAt);
    expect(await countEvents(server, 'api-token-updated')).toBe(before + 1);
    const event = await lastEvent(server, 'api-token-updated');
    expect(event).toMatchObject({
      project: 'alpha',
      environment: 'development',
      preData: { id: made.body.id, expiresAt: made.body.expiresAt },
      data: { id: made.body.id, expiresAt },
    });

    const bySecret = await server.request(
      'PUT',
      `/api/admin/api-tokens/${encodeURIComponent(made.body.secret)}`,
      {
        ...admin(server),
        body: { expiresAt: inHours(72) },
      },
    );
    expect(bySecret.status).toBe(200);
  });

  it('takes effect at once: a token in use stops at its new expiry, an expiring one is kept alive', async () => {
    const inUse = await makeToken('alpha', { tokenName: 'cut-short' });
    const sdk = { token: inUse.body.secret };
    expect((await server.request('GET', '/api/client/features', sdk)).status).toBe(200);
    const soon = new Date(Date.now() + 1500);
    await server.request('PUT', `/api/admin/api-tokens/${inUse.body.id}`, {
      ...admin(server),
      body: { expiresAt: soon.toISOString() },
    });

    const expiring = await makeToken('alpha', {
      tokenName: 'kept-alive',
      expiresAt: new Date(Date.now() + 1500).toISOString(),
    });
    const kept = { token: expiring.body.secret };
    expect((await server.request('GET', '/api/client/features', kept)).status).toBe(200);
    await server.request('PUT', `/api/admin/api-tokens/${expiring.body.id}`, {
      ...admin(server),
      body: { expiresAt: inHours(1) },
    });

    expect((await server.request('GET', '/api/client/features', sdk)).status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, soon.getTime() - Date.now()) + 100));
    expect((await server.request('GET', '/api/client/features', sdk)).status).toBe(401);
    expect((await server.request('GET', '/api/client/features', kept)).status).toBe(200);
  });

  it('answers 400 for a past, invalid or missing date, 404 for an unknown token', async () => {
    const made = await makeToken('alpha', { tokenName: 'unchanged' });
    const url = `/api/admin/api-tokens/${made.body.id}`;
    for (const body of [
      { expiresAt: '2001-01-01T00:00:00Z' },
      { expiresAt: 'next week' },
      {},
      { expiresAt: inHours(1), tokenName: 'x' },
    ]) {
      const res = await server.request('PUT', url, { ...admin(server), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    for (const ref of ['999999', '2147483648', `default:development.${'0'.repeat(56)}`]) {
      const res = await server.request('PUT', `/api/admin/api-tokens/${encodeURIComponent(ref)}`, {
        ...admin(server),
        body: { expiresAt: inHours(1) },
      });
      expect(res.status, ref).toBe(404);
    }
    const read = await server.request('GET', '/api/admin/api-tokens/unchanged', admin(server));
    expect(read.body.tokens[0].expiresAt).toBeNull();
  });

  it('is for whoever may create tokens of the kind: Editors client tokens, not admin ones; Viewers none', async () => {
    const client = await makeToken('alpha', { tokenName: 'editor-extends' });
    const body = { expiresAt: inHours(5) };
    const ok = await server.request('PUT', `/api/admin/api-tokens/${client.body.id}`, {
      token: editor.pat,
      body,
    });
    expect(ok.status).toBe(200);
    const adminMade = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: { tokenName: 'ops', type: 'admin' },
    });
    const denied = await server.request('PUT', `/api/admin/api-tokens/${adminMade.body.id}`, {
      token: editor.pat,
      body,
    });
    expect(denied.status).toBe(403);
    const byViewer = await server.request('PUT', `/api/admin/api-tokens/${client.body.id}`, {
      token: viewer.pat,
      body,
    });
    expect(byViewer.status).toBe(403);
    const byMember = await server.request('PUT', `/api/admin/api-tokens/${client.body.id}`, {
      token: alphaMember.pat,
      body,
    });
    expect(byMember.status).toBe(403);
    expect((await server.request('PUT', `/api/admin/api-tokens/${client.body.id}`, { body })).status).toBe(
      401,
    );
  });
});

describe('the project token permissions', () => {
  it('are listed per project and held by Owner and Member', async () => {
    const names = ['READ_PROJECT_API_TOKEN', 'CREATE_PROJECT_API_TOKEN', 'DELETE_PROJECT_API_TOKEN'];
    const perms = await server.request('GET', '/api/admin/permissions', admin(server));
    expect(perms.body.permissions.project.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(names),
    );
    for (const role of [4, 5]) {
      const res = await server.request('GET', `/api/admin/roles/${role}`, admin(server));
      expect(res.body.permissions.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(names),
      );
    }
  });
});

describe('deleting a project', () => {
  it('deletes the tokens of that project alone and takes it out of the list of the others, with their events', async () => {
    await createProject(server, 'short-lived');
    const own = await makeToken('short-lived', { tokenName: 'short-lived-sdk' });
    const shared = await server.request('POST', '/api/admin/api-tokens', {
      ...admin(server),
      body: { tokenName: 'short-lived-and-beta', type: 'client', projects: ['short-lived', 'beta'] },
    });
    expect(shared.status, shared.text).toBe(201);
    const deleted = await countEvents(server, 'api-token-deleted');
    const updated = await countEvents(server, 'api-token-updated');

    const res = await server.request('DELETE', '/api/admin/projects/short-lived', admin(server));
    expect(res.status, res.text).toBe(200);

    expect((await server.request('GET', '/api/client/features', { token: own.body.secret })).status).toBe(
      401,
    );
    expect(await countEvents(server, 'api-token-deleted')).toBe(deleted + 1);
    expect(await lastEvent(server, 'api-token-deleted')).toMatchObject({
      project: 'short-lived',
      preData: { id: own.body.id, projects: ['short-lived'] },
    });
    expect(await countEvents(server, 'api-token-updated')).toBe(updated + 1);
    expect(await lastEvent(server, 'api-token-updated')).toMatchObject({
      preData: { id: shared.body.id, projects: ['short-lived', 'beta'] },
      data: { id: shared.body.id, projects: ['beta'] },
    });

    // A project made again under the name inherits neither token.
    await createProject(server, 'short-lived');
    expect((await server.request('GET', base('short-lived'), admin(server))).body.tokens).toEqual([]);
    expect((await server.request('GET', '/api/client/features', { token: own.body.secret })).status).toBe(
      401,
    );
    const stillBeta = await server.request('GET', base('beta'), admin(server));
    expect(stillBeta.body.tokens).toContainEqual(
      expect.objectContaining({ id: shared.body.id, projects: ['beta'], project: 'beta' }),
    );
  });
});

describe('a token made while its project is deleted', () => {
  it('never outlives the project: made first, it goes with it; made after, it is refused', async () => {
    for (let round = 0; round < 20; round++) {
      const project = `racing-${round}`;
      await createProject(server, project);
      const [made, deleted] = await Promise.all([
        server.request('POST', '/api/admin/api-tokens', {
          ...admin(server),
          body: { tokenName: `racing-sdk-${round}`, type: 'client', projects: [project] },
        }),
        server.request('DELETE', `/api/admin/projects/${project}`, admin(server)),
      ]);
      expect(deleted.status, deleted.text).toBe(200);
      expect([201, 400], made.text).toContain(made.status);
      if (made.status === 201) {
        const res = await server.request('GET', '/api/client/features', { token: made.body.secret });
        expect(res.status, `round ${round}`).toBe(401);
      }
    }
  });
});
