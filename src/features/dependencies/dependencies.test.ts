import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused, grantRole } from '../../../test/features.js';
import { flags } from '../../../test/flags.js';
import { send } from '../../../test/requests.js';
import {
  countEvents,
  createProject,
  createUser,
  lastEvent,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../../test/server.js';

const CLIENT = `default:development.${'d'.repeat(56)}`;
const FRONTEND = `default:development.${'e'.repeat(56)}`;
let server: TestServer;
let viewer: TestUser;
let member: TestUser;
let f: ReturnType<typeof flags>;

const base = '/api/admin/projects/default/features';
const feature = async (name: string, project = 'default') =>
  (await send(server, 'GET', `/api/admin/projects/${project}/features/${name}`)).body;
const relations = async (name: string) => {
  const { dependencies, children } = await feature(name);
  return { dependencies, children };
};

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: CLIENT, INIT_FRONTEND_API_TOKENS: FRONTEND });
  viewer = await createUser(server, 3);
  member = await createUser(server, 3);
  await grantRole(server, member.id, 'default', 5);
  f = flags(server);
  for (const name of ['parent', 'child', 'other', 'grandchild', 'lonely']) await f.create(name);
  await createProject(server, 'elsewhere');
  await flags(server, 'elsewhere').create('foreign');
  await f.create('retired');
  await f.archive(['retired']);
});
afterAll(() => server.close());

describe('POST …/features/:child/dependencies', () => {
  it('gives a child its parent: 200, read back on both, feature-dependency-added', async () => {
    const res = await send(server, 'POST', `${base}/child/dependencies`, { feature: 'parent' });
    expect(res.status, res.text).toBe(200);
    expect(await relations('child')).toEqual({
      dependencies: [{ feature: 'parent', enabled: true, variants: [] }],
      children: [],
    });
    expect(await relations('parent')).toEqual({ dependencies: [], children: ['child'] });
    expect(await lastEvent(server, 'feature-dependency-added')).toMatchObject({
      featureName: 'child',
      project: 'default',
      createdBy: 'admin',
      data: { feature: 'parent', enabled: true },
    });
  });

  it('replaces the parent condition; the same condition again records nothing', async () => {
    const res = await send(server, 'POST', `${base}/child/dependencies`, {
      feature: 'parent',
      variants: ['a', 'b'],
    });
    expect(res.status).toBe(200);
    expect((await relations('child')).dependencies).toEqual([
      { feature: 'parent', enabled: true, variants: ['a', 'b'] },
    ]);
    const events = await countEvents(server);
    expect(
      (await send(server, 'POST', `${base}/child/dependencies`, { feature: 'parent', variants: ['a', 'b'] }))
        .status,
    ).toBe(200);
    expect(await countEvents(server)).toBe(events);
    // `enabled: false` needs the parent off: variants do not apply then.
    await send(server, 'POST', `${base}/child/dependencies`, {
      feature: 'parent',
      enabled: false,
      variants: ['a'],
    });
    expect((await relations('child')).dependencies).toEqual([
      { feature: 'parent', enabled: false, variants: [] },
    ]);
    await send(server, 'POST', `${base}/child/dependencies`, { feature: 'parent' });
  });

  it('refuses what Unleash refuses, changing nothing', async () => {
    const read = () => Promise.all(['parent', 'child', 'grandchild', 'other'].map(relations));
    const refuse = (status: number, child: string, body: unknown, project = 'default') =>
      expectRefused(
        server,
        status,
        () => send(server, 'POST', `/api/admin/projects/${project}/features/${child}/dependencies`, body),
        read,
        `${child} -> ${JSON.stringify(body)}`,
      );
    await refuse(403, 'other', { feature: 'other' }); // itself
    await refuse(403, 'grandchild', { feature: 'child' }); // a parent that has a parent
    await refuse(403, 'parent', { feature: 'other' }); // a child that has children
    await refuse(403, 'other', { feature: 'retired' }); // archived parent
    await refuse(403, 'other', { feature: 'nothing' }); // no such parent
    await refuse(404, 'other', { feature: 'foreign' }); // parent of another project
    await refuse(404, 'nothing', { feature: 'other' }); // no such child
    await refuse(404, 'retired', { feature: 'other' }); // archived child
    await refuse(404, 'other', { feature: 'parent' }, 'elsewhere'); // child not in the path's project
    await refuse(400, 'other', {});
    await refuse(400, 'other', { feature: 'parent', variants: 'a' });
    await refuse(400, 'other', { feature: 'parent', enabled: 'yes' });
  });

  it('needs UPDATE_FEATURE_DEPENDENCY: refused without credentials, to Viewers and client tokens; 415', async () => {
    const read = () => relations('other');
    const body = { feature: 'parent' };
    const url = `${base}/other/dependencies`;
    await expectRefused(server, 401, () => send(server, 'POST', url, body, ''), read);
    await expectRefused(server, 403, () => send(server, 'POST', url, body, viewer.pat), read);
    await expectRefused(server, 403, () => send(server, 'POST', url, body, CLIENT), read);
    await expectRefused(
      server,
      415,
      () =>
        server.request('POST', url, {
          token: server.adminToken,
          body: JSON.stringify(body),
          contentType: 'text/plain',
        }),
      read,
    );
  });

  it('is allowed to a Member of the project (and an Editor), as Unleash gives them the permission', async () => {
    expect(
      (await send(server, 'POST', `${base}/other/dependencies`, { feature: 'parent' }, member.pat)).status,
    ).toBe(200);
    expect((await lastEvent(server, 'feature-dependency-added')).createdBy).toBe(member.username);
    const editor = await createUser(server, 2);
    expect((await send(server, 'DELETE', `${base}/other/dependencies`, undefined, editor.pat)).status).toBe(
      200,
    );
  });
});

describe('reading the options', () => {
  it('GET …/parents: the features of the project a feature may depend on', async () => {
    const res = await send(server, 'GET', `${base}/lonely/parents`, undefined, viewer.pat);
    expect(res.status).toBe(200);
    // Not itself, not a feature that has a parent (child), not archived or of another project.
    expect(res.body).toEqual(['grandchild', 'other', 'parent']);
    expect((await send(server, 'GET', `${base}/nothing/parents`)).status).toBe(404);
    expect((await send(server, 'GET', `${base}/lonely/parents`, undefined, '')).status).toBe(401);
  });

  it("GET …/parent-variants: the names of the parent's variants, of environments and strategies", async () => {
    await f.setVariants('parent', 'development', [
      { name: 'red', weight: 500, weightType: 'variable', stickiness: 'default' },
      { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
    ]);
    await f.addStrategy('parent', 'production', {
      name: 'flexibleRollout',
      parameters: { rollout: '100' },
      variants: [{ name: 'green', weight: 1000, weightType: 'variable', stickiness: 'default' }],
    });
    const res = await send(server, 'GET', `${base}/parent/parent-variants`, undefined, viewer.pat);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(['blue', 'green', 'red']);
  });

  it('GET …/parent-variants: none, not 404, for a name that is no feature of the project', async () => {
    // The admin UI asks with its "no parent" option before a parent is chosen.
    for (const parent of ['nothing', encodeURIComponent('none (remove dependency)')]) {
      const res = await send(server, 'GET', `${base}/${parent}/parent-variants`, undefined, viewer.pat);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    }
    const elsewhere = await send(
      server,
      'GET',
      '/api/admin/projects/elsewhere/features/parent/parent-variants',
    );
    expect(elsewhere.body).toEqual([]);
  });

  it('GET /api/admin/projects/:p/dependencies: whether the project has any', async () => {
    expect(
      (await send(server, 'GET', '/api/admin/projects/default/dependencies', undefined, viewer.pat)).body,
    ).toBe(true);
    expect((await send(server, 'GET', '/api/admin/projects/elsewhere/dependencies')).body).toBe(false);
    expect((await send(server, 'GET', '/api/admin/projects/nowhere/dependencies')).status).toBe(404);
  });
});

describe('SDKs follow dependencies', () => {
  it('serves `dependencies` to SDKs, only on features that have one', async () => {
    const res = await server.request('GET', '/api/client/features', { token: CLIENT });
    const byName = new Map(res.body.features.map((x: { name: string }) => [x.name, x]));
    expect(byName.get('child')).toMatchObject({
      dependencies: [{ feature: 'parent', enabled: true, variants: [] }],
    });
    expect(byName.get('parent')).not.toHaveProperty('dependencies');
  });

  it('the frontend API turns a child on only while its parent is on', async () => {
    const on = async () =>
      (await server.request('GET', '/api/frontend', { token: FRONTEND })).body.toggles.map(
        (t: { name: string }) => t.name,
      );
    await f.enable('child', 'development');
    expect(await on()).not.toContain('child');
    await f.enable('parent', 'development');
    expect(await on()).toEqual(expect.arrayContaining(['child', 'parent']));
    // A child that needs the parent off.
    await send(server, 'POST', `${base}/child/dependencies`, { feature: 'parent', enabled: false });
    expect(await on()).not.toContain('child');
    await f.disable('parent', 'development');
    expect(await on()).toContain('child');
    await send(server, 'POST', `${base}/child/dependencies`, { feature: 'parent' });
  });
});

describe('removing dependencies', () => {
  it('DELETE …/dependencies/:parent removes one: 200, feature-dependency-removed; 404 when there is none', async () => {
    await send(server, 'POST', `${base}/grandchild/dependencies`, { feature: 'other' });
    const res = await send(server, 'DELETE', `${base}/grandchild/dependencies/other`);
    expect(res.status).toBe(200);
    expect((await relations('grandchild')).dependencies).toEqual([]);
    expect(await lastEvent(server, 'feature-dependency-removed')).toMatchObject({
      featureName: 'grandchild',
      data: { feature: 'other' },
    });
    const read = () => relations('grandchild');
    await expectRefused(
      server,
      404,
      () => send(server, 'DELETE', `${base}/grandchild/dependencies/other`),
      read,
    );
    await expectRefused(
      server,
      403,
      () => send(server, 'DELETE', `${base}/child/dependencies/parent`, undefined, viewer.pat),
      read,
    );
  });

  it('DELETE …/dependencies removes all: feature-dependencies-removed; 404 when there are none', async () => {
    await send(server, 'POST', `${base}/grandchild/dependencies`, { feature: 'other' });
    expect((await send(server, 'DELETE', `${base}/grandchild/dependencies`)).status).toBe(200);
    expect((await relations('grandchild')).dependencies).toEqual([]);
    expect(await lastEvent(server, 'feature-dependencies-removed')).toMatchObject({
      featureName: 'grandchild',
    });
    await expectRefused(
      server,
      404,
      () => send(server, 'DELETE', `${base}/grandchild/dependencies`),
      () => relations('grandchild'),
    );
    await expectRefused(
      server,
      401,
      () => send(server, 'DELETE', `${base}/child/dependencies`, undefined, ''),
      () => relations('child'),
    );
  });
});

describe('archiving and moving', () => {
  it('POST …/archive/validate says what archiving would break', async () => {
    const validate = (features: string[]) =>
      send(server, 'POST', '/api/admin/projects/default/archive/validate', { features });
    expect((await validate(['parent'])).body).toEqual({
      parentsWithChildFeatures: ['parent'],
      hasDeletedDependencies: true,
    });
    expect((await validate(['parent', 'child'])).body).toEqual({
      parentsWithChildFeatures: [],
      hasDeletedDependencies: true,
    });
    expect((await validate(['lonely', 'nothing'])).body).toEqual({
      parentsWithChildFeatures: [],
      hasDeletedDependencies: false,
    });
    expect((await validate(['parent'])).status).toBe(200);
    expect((await send(server, 'POST', '/api/admin/projects/default/archive/validate', {})).status).toBe(400);
    const unknown = await send(server, 'POST', '/api/admin/projects/no-such-project/archive/validate', {
      features: ['parent'],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      name: 'NotFoundError',
      message: expect.stringContaining('no-such-project'),
    });
    expect(
      (
        await send(
          server,
          'POST',
          '/api/admin/projects/default/archive/validate',
          { features: [] },
          viewer.pat,
        )
      ).status,
    ).toBe(403);
  });

  it('refuses to archive a parent whose children stay (403), by any path', async () => {
    const read = () => relations('parent');
    await expectRefused(
      server,
      403,
      () => send(server, 'POST', '/api/admin/projects/default/archive', { features: ['parent'] }),
      read,
    );
    await expectRefused(server, 403, () => send(server, 'DELETE', `${base}/parent`), read);
    await expectRefused(
      server,
      403,
      () => send(server, 'PATCH', `${base}/parent`, [{ op: 'replace', path: '/archived', value: true }]),
      read,
    );
  });

  it('refuses to move a feature that takes part in a dependency (403)', async () => {
    await send(server, 'POST', '/api/admin/projects/elsewhere/environments', { environment: 'development' });
    for (const name of ['parent', 'child']) {
      const res = await expectRefused(
        server,
        403,
        () => send(server, 'POST', `${base}/${name}/changeProject`, { newProjectId: 'elsewhere' }),
        () => relations(name),
      );
      expect(res.body.message).toContain('has dependencies');
    }
  });

  it('archiving a child removes its dependency (feature-dependencies-removed before feature-archived)', async () => {
    const archivedBefore = await countEvents(server, 'feature-archived');
    expect((await send(server, 'DELETE', `${base}/child`)).status).toBe(202);
    expect(await countEvents(server, 'feature-archived')).toBe(archivedBefore + 1);
    const removed = await lastEvent(server, 'feature-dependencies-removed');
    const archived = await lastEvent(server, 'feature-archived');
    expect(removed).toMatchObject({ featureName: 'child' });
    expect(archived.id).toBeGreaterThan(removed.id);
    expect((await relations('parent')).children).toEqual([]);
    await f.revive(['child']);
    expect((await relations('child')).dependencies).toEqual([]);
  });

  it('archives a parent together with its children', async () => {
    await send(server, 'POST', `${base}/child/dependencies`, { feature: 'parent' });
    const res = await send(server, 'POST', '/api/admin/projects/default/archive', {
      features: ['parent', 'child'],
    });
    expect(res.status).toBe(202);
    expect((await send(server, 'GET', `${base}/parent`)).status).toBe(404);
    await f.revive(['parent', 'child']);
    expect(await relations('child')).toEqual({ dependencies: [], children: [] });
  });
});
