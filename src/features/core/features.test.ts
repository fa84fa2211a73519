import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../../test/requests.js';
import {
  countEvents,
  createUser,
  startTestServer,
  type TestServer,
  writeDirectly,
} from '../../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const create = (body: unknown, project = 'default', token = server.adminToken) =>
  server.request('POST', `/api/admin/projects/${project}/features`, { token, body });

describe('POST /api/admin/projects/:projectId/features', () => {
  it('creates a feature: 201, defaults, one feature-created event', async () => {
    const before = await countEvents(server, 'feature-created');
    const res = await create({ name: 'new-checkout' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'new-checkout',
      description: null,
      type: 'release',
      project: 'default',
      stale: false,
      impressionData: false,
      archived: false,
    });
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    expect(await countEvents(server, 'feature-created')).toBe(before + 1);
    const events = await server.request('GET', '/api/admin/events?feature=new-checkout', admin(server));
    expect(events.body.events[0]).toMatchObject({
      type: 'feature-created',
      project: 'default',
      featureName: 'new-checkout',
    });
  });

  it('attaches the feature, disabled, to every environment of the project', async () => {
    await create({ name: 'with-envs', description: 'd', type: 'experiment', impressionData: true });
    const res = await server.request('GET', '/api/admin/projects/default/features/with-envs', admin(server));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'with-envs',
      description: 'd',
      type: 'experiment',
      impressionData: true,
    });
    expect(res.body.environments).toMatchObject([
      {
        name: 'development',
        type: 'development',
        enabled: false,
        sortOrder: 100,
        strategies: [],
        variants: [],
      },
      {
        name: 'production',
        type: 'production',
        enabled: false,
        sortOrder: 200,
        strategies: [],
        variants: [],
      },
    ]);
  });

  it('answers 409 for a taken name, 404 for an unknown project, 400 for a name that is not URL-friendly', async () => {
    expect((await create({ name: 'new-checkout' })).status).toBe(409);
    expect((await create({ name: 'fresh' }, 'nope')).status).toBe(404);
    for (const name of ['has space', 'slash/name', '', 'a'.repeat(101), 'ünïcode']) {
      const res = await create({ name });
      expect(res.status, name).toBe(400);
    }
    expect((await create({ name: 'typed', impressionData: 'yes' })).status).toBe(400);
  });

  it('is refused to a Viewer (403) and allowed to an Editor', async () => {
    const viewer = await createUser(server, 3);
    const editor = await createUser(server, 2);
    expect((await create({ name: 'by-viewer' }, 'default', viewer.pat)).status).toBe(403);
    expect((await create({ name: 'by-editor' }, 'default', editor.pat)).status).toBe(201);
  });
});

describe('reading features', () => {
  it('lists the live features of a project with their environments', async () => {
    const res = await server.request('GET', '/api/admin/projects/default/features', admin(server));
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(2);
    const names = res.body.features.map((f: { name: string }) => f.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('new-checkout');
    expect(res.body.features[0].environments.map((e: { name: string }) => e.name)).toEqual([
      'development',
      'production',
    ]);
  });

  it('lists each feature with the same fields and values as reading it alone', async () => {
    await writeDirectly(
      server,
      `UPDATE features SET last_seen_at = '2024-05-06T07:08:09.123456Z', stale = true WHERE name = 'with-envs'`,
    );
    await writeDirectly(
      server,
      `UPDATE feature_environments SET enabled = true, variants = '[{"name":"a"},{"name":"b"}]',
              last_seen_at = '2024-05-06T07:08:09.5Z'
        WHERE feature_name = 'with-envs' AND environment = 'production'`,
    );
    const list = await server.request('GET', '/api/admin/projects/default/features', admin(server));
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    const listed = list.body.features.find((f: { name: string }) => f.name === 'with-envs');
    const single = (
      await server.request('GET', '/api/admin/projects/default/features/with-envs', admin(server))
    ).body;
    // The lifecycle stage and links are the single feature's only, as in Unleash's list.
    const {
      environments,
      variants: _v,
      children: _c,
      dependencies: _d,
      lifecycle: _s,
      links: _l,
      ...metadata
    } = single;
    const summary = [
      'name',
      'environment',
      'type',
      'enabled',
      'sortOrder',
      'variantCount',
      'lastSeenAt',
      'hasStrategies',
      'hasEnabledStrategies',
    ];
    expect(listed).toEqual({
      ...metadata,
      environments: environments.map((e: Record<string, unknown>) =>
        Object.fromEntries(summary.map((k) => [k, e[k]])),
      ),
      tags: [],
    });
    expect(listed).toMatchObject({ stale: true, lastSeenAt: '2024-05-06T07:08:09.123Z' });
    expect(listed.environments[1]).toMatchObject({
      enabled: true,
      variantCount: 2,
      lastSeenAt: '2024-05-06T07:08:09.500Z',
    });
  });

  it("lists each feature's tags and whether its environments have (enabled) strategies", async () => {
    await create({ name: 'listed-tags' });
    const tag = { type: 'simple', value: 'checkout' };
    expect(
      (await server.request('POST', '/api/admin/features/listed-tags/tags', { ...admin(server), body: tag }))
        .status,
    ).toBe(201);
    const strategy = await server.request(
      'POST',
      '/api/admin/projects/default/features/listed-tags/environments/production/strategies',
      { ...admin(server), body: { name: 'default', disabled: true } },
    );
    expect(strategy.status).toBe(200);
    const list = await server.request('GET', '/api/admin/projects/default/features', admin(server));
    const listed = list.body.features.find((f: { name: string }) => f.name === 'listed-tags');
    expect(listed.tags).toEqual([tag]);
    expect(listed.environments).toMatchObject([
      { name: 'development', hasStrategies: false, hasEnabledStrategies: false },
      { name: 'production', hasStrategies: true, hasEnabledStrategies: false },
    ]);
  });

  it('answers 404 for an unknown feature or one in another project', async () => {
    await server.request('POST', '/api/admin/projects', {
      ...admin(server),
      body: { id: 'other', name: 'Other' },
    });
    expect(
      (await server.request('GET', '/api/admin/projects/default/features/nope', admin(server))).status,
    ).toBe(404);
    const res = await server.request('GET', '/api/admin/projects/other/features/new-checkout', admin(server));
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('"default"');
    expect((await server.request('GET', '/api/admin/projects/nope/features', admin(server))).status).toBe(
      404,
    );
  });
});
