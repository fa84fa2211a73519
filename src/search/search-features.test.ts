import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin } from '../../test/requests.js';
import {
  createFeature,
  createProject,
  createUser,
  startTestServer,
  type TestServer,
  type TestUser,
  writeDirectly,
} from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;
const CLIENT_TOKEN = `*:development.${'d'.repeat(56)}`;

async function ok(method: string, url: string, body?: unknown) {
  const res = await asAdmin(server, method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res;
}

const search = (query = '', token = server.adminToken) =>
  server.request('GET', `/api/admin/search/features${query}`, { token });
const names = async (query: string, token?: string) => {
  const res = await search(query, token);
  expect(res.status).toBe(200);
  return res.body.features.map((f: { name: string }) => f.name);
};

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: CLIENT_TOKEN });
  viewer = await createUser(server, 3);
  editor = await createUser(server, 2);
  await createProject(server, 'mobile');
  // Created in this order, so the default order (createdAt ascending) is this one.
  await createFeature(server, 'checkout-v2', 'default', { description: 'New payment page', type: 'release' });
  await createFeature(server, 'dark-mode', 'default', { type: 'experiment' });
  await createFeature(server, 'kill-search', 'default', { type: 'kill-switch' });
  await createFeature(server, 'offline-sync', 'mobile', { type: 'operational' });
  const byEditor = await server.request('POST', '/api/admin/projects/mobile/features', {
    token: editor.pat,
    body: { name: 'push-prompt', type: 'release' },
  });
  expect(byEditor.status).toBe(201);
  await createFeature(server, 'old-banner', 'default');
  await ok('POST', '/api/admin/features/dark-mode/tags', { type: 'simple', value: 'ui' });
  await ok('POST', '/api/admin/features/checkout-v2/tags', { type: 'simple', value: 'payments' });
  await ok('POST', '/api/admin/features/checkout-v2/tags', { type: 'simple', value: 'ui' });
  await ok('POST', '/api/admin/projects/default/stale', { features: ['kill-search'], stale: true });
  await ok('POST', '/api/admin/projects/default/archive', { features: ['old-banner'] });
  await ok('POST', '/api/admin/projects/default/features/dark-mode/dependencies', { feature: 'checkout-v2' });
  const segment = await ok('POST', '/api/admin/segments', { name: 'beta-users', constraints: [] });
  await ok('POST', '/api/admin/projects/default/features/checkout-v2/environments/production/strategies', {
    name: 'default',
    segments: [segment.body.id],
  });
  await ok('POST', '/api/admin/projects/default/features/checkout-v2/environments/production/on');
  const favorite = await server.request(
    'POST',
    '/api/admin/projects/mobile/features/offline-sync/favorites',
    {
      token: viewer.pat,
    },
  );
  expect(favorite.status).toBe(200);
  // An operational flag past its seven days: potentially stale.
  await writeDirectly(
    server,
    "UPDATE features SET created_at = now() - interval '30 days' WHERE name = 'offline-sync'",
  );
});
afterAll(() => server.close());

describe('GET /api/admin/search/features', () => {
  it('answers the live features of every project, oldest first, with their environments and the total', async () => {
    const res = await search();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(5);
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual([
      'offline-sync',
      'checkout-v2',
      'dark-mode',
      'kill-search',
      'push-prompt',
    ]);
    const checkout = res.body.features.find((f: { name: string }) => f.name === 'checkout-v2');
    expect(checkout).toEqual({
      name: 'checkout-v2',
      description: 'New payment page',
      type: 'release',
      project: 'default',
      stale: false,
      favorite: false,
      impressionData: false,
      createdAt: expect.any(String),
      lastSeenAt: null,
      archivedAt: null,
      dependencyType: 'parent',
      environments: [
        expect.objectContaining({
          name: 'development',
          enabled: false,
          type: 'development',
          hasStrategies: false,
        }),
        expect.objectContaining({
          name: 'production',
          enabled: true,
          type: 'production',
          variantCount: 0,
          hasStrategies: true,
          hasEnabledStrategies: true,
          lastSeenAt: null,
          enabledStrategies: [{ name: 'default', constraints: 0, segments: 1 }],
        }),
      ],
      segments: ['beta-users'],
      tags: [
        { type: 'simple', value: 'payments' },
        { type: 'simple', value: 'ui' },
      ],
      lifecycle: { stage: 'initial', enteredStageAt: expect.any(String) },
      createdBy: { id: -42, name: 'Admin token', imageUrl: '' },
    });
    const dark = res.body.features.find((f: { name: string }) => f.name === 'dark-mode');
    expect(dark.dependencyType).toBe('child');
    expect(dark.segments).toEqual([]);
    const push = res.body.features.find((f: { name: string }) => f.name === 'push-prompt');
    expect(push.createdBy).toEqual({
      id: editor.id,
      name: editor.username,
      imageUrl: expect.stringContaining('gravatar'),
    });
    expect(push).not.toHaveProperty('tags');
  });

  it('says what each strategy SDKs get lets in: rollout, users, constraints and segments', async () => {
    await createFeature(server, 'reach', 'mobile');
    const strategies = '/api/admin/projects/mobile/features/reach/environments/development/strategies';
    await ok('POST', strategies, {
      name: 'flexibleRollout',
      parameters: { rollout: '25', stickiness: 'default', groupId: 'reach' },
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    });
    await ok('POST', strategies, { name: 'userWithId', parameters: { userIds: 'ann, bob,,carl' } });
    await ok('POST', strategies, { name: 'default', disabled: true });
    await ok('POST', strategies.replace('development', 'production'), {
      name: 'flexibleRollout',
      parameters: { rollout: '0', stickiness: 'default', groupId: 'reach' },
    });
    try {
      const res = await search('?query=reach');
      const [reach] = res.body.features;
      expect(reach.environments.map((e: { enabledStrategies: unknown }) => e.enabledStrategies)).toEqual([
        [
          { name: 'flexibleRollout', rollout: 25, constraints: 1, segments: 0 },
          { name: 'userWithId', users: 3, constraints: 0, segments: 0 },
        ],
        [{ name: 'flexibleRollout', rollout: 0, constraints: 0, segments: 0 }],
      ]);
    } finally {
      await ok('DELETE', '/api/admin/projects/mobile/features/reach');
      await ok('DELETE', '/api/admin/archive/reach');
    }
  });

  it('finds words in the name, the description and the tags, in any case; commas mean any of them', async () => {
    expect(await names('?query=PAYMENT')).toEqual(['checkout-v2']);
    expect(await names('?query=dark')).toEqual(['dark-mode']);
    expect(await names('?query=simple:ui')).toEqual(['checkout-v2', 'dark-mode']);
    expect(await names('?query=offline,push')).toEqual(['offline-sync', 'push-prompt']);
    expect(await names('?query=nothing-like-this')).toEqual([]);
  });

  it('filters by project, type, state, creator, tag, segment, environment status and lifecycle', async () => {
    expect(await names('?project=IS:mobile')).toEqual(['offline-sync', 'push-prompt']);
    expect(await names('?project=IS_NOT:mobile')).toEqual(['checkout-v2', 'dark-mode', 'kill-search']);
    expect(await names('?project=IS_ANY_OF:mobile,nope')).toEqual(['offline-sync', 'push-prompt']);
    expect(await names('?project=IS_NONE_OF:default,mobile')).toEqual([]);
    expect(await names('?type=IS_ANY_OF:experiment,kill-switch')).toEqual(['dark-mode', 'kill-search']);
    expect(await names('?state=IS:stale')).toEqual(['kill-search']);
    expect(await names('?state=IS:potentially-stale')).toEqual(['offline-sync']);
    expect(await names('?state=IS_NOT:active')).toEqual(['kill-search']);
    expect(await names(`?createdBy=IS:${editor.id}`)).toEqual(['push-prompt']);
    expect(await names('?createdBy=IS_NONE_OF:-42')).toEqual(['push-prompt']);
    expect(await names('?tag=INCLUDE:simple:ui')).toEqual(['checkout-v2', 'dark-mode']);
    expect(await names('?tag=INCLUDE_ALL_OF:simple:ui,simple:payments')).toEqual(['checkout-v2']);
    expect(await names('?tag=DO_NOT_INCLUDE:simple:ui')).toEqual([
      'offline-sync',
      'kill-search',
      'push-prompt',
    ]);
    expect(await names('?segment=INCLUDE:beta-users')).toEqual(['checkout-v2']);
    expect(await names('?status=production:enabled')).toEqual(['checkout-v2']);
    expect(await names('?status=production:enabled&status=development:enabled')).toEqual(['checkout-v2']);
    expect(await names('?lifecycle=IS:initial&project=IS:mobile')).toEqual(['offline-sync', 'push-prompt']);
    expect(await names('?createdAt=IS_BEFORE:2100-01-01&project=IS:mobile')).toEqual([
      'offline-sync',
      'push-prompt',
    ]);
    expect(await names('?createdAt=IS_ON_OR_AFTER:2100-01-01')).toEqual([]);
    expect(await names('?type=IS:release&project=IS:default')).toEqual(['checkout-v2']);
  });

  it('answers archived features only when asked', async () => {
    const res = await search('?archived=IS:true');
    expect(res.body.total).toBe(1);
    expect(res.body.features[0]).toMatchObject({ name: 'old-banner', archivedAt: expect.any(String) });
    expect(await names('?lifecycle=IS:archived')).toEqual(['old-banner']);
    expect(await names('?archived=IS:false&query=banner')).toEqual([]);
  });

  it("marks the caller's favorites, filters by them and puts them first when asked", async () => {
    const mine = await search('', viewer.pat);
    expect(
      mine.body.features.filter((f: { favorite: boolean }) => f.favorite).map((f: any) => f.name),
    ).toEqual(['offline-sync']);
    expect(await names('?favorite=IS:true', viewer.pat)).toEqual(['offline-sync']);
    expect(await names('?favorite=IS:true')).toEqual([]);
    expect(await names('?sortBy=name&favoritesFirst=true', viewer.pat)).toEqual([
      'offline-sync',
      'checkout-v2',
      'dark-mode',
      'kill-search',
      'push-prompt',
    ]);
  });

  it('sorts by the field asked, both ways; an unknown field sorts by creation', async () => {
    expect(await names('?sortBy=name')).toEqual([
      'checkout-v2',
      'dark-mode',
      'kill-search',
      'offline-sync',
      'push-prompt',
    ]);
    expect(await names('?sortBy=name&sortOrder=desc')).toEqual([
      'push-prompt',
      'offline-sync',
      'kill-search',
      'dark-mode',
      'checkout-v2',
    ]);
    expect(await names('?sortBy=type')).toEqual([
      'dark-mode',
      'kill-search',
      'offline-sync',
      'checkout-v2',
      'push-prompt',
    ]);
    expect((await names('?sortBy=stale&sortOrder=desc'))[0]).toBe('kill-search');
    expect(await names('?sortBy=createdAt&sortOrder=desc')).toEqual([
      'push-prompt',
      'kill-search',
      'dark-mode',
      'checkout-v2',
      'offline-sync',
    ]);
    expect(await names('?sortBy=whatever')).toEqual(await names(''));
  });

  it('pages with offset and limit, the total counting every match', async () => {
    const first = await search('?sortBy=name&limit=2');
    expect(first.body).toMatchObject({ total: 5 });
    expect(first.body.features.map((f: any) => f.name)).toEqual(['checkout-v2', 'dark-mode']);
    expect(await names('?sortBy=name&limit=2&offset=2')).toEqual(['kill-search', 'offline-sync']);
    const past = await search('?offset=10');
    expect(past.body).toEqual({ features: [], total: 5 });
    expect((await search('')).body.features).toHaveLength(5);
  });

  it('shows a Viewer every project, as every admin read does', async () => {
    expect(await names('', viewer.pat)).toHaveLength(5);
  });

  it('refuses callers without credentials (401) and client tokens (403)', async () => {
    const none = await server.request('GET', '/api/admin/search/features');
    expect(none.status).toBe(401);
    expect(none.body.name).toBe('AuthenticationRequired');
    const client = await search('', CLIENT_TOKEN);
    expect(client.status).toBe(403);
    expect(client.body.name).toBe('NoAccessError');
  });

  it.each([
    ['project=default', 'project'],
    ['project=LIKE:default', 'project'],
    ['state=stale', 'state'],
    ['tag=INCLUDE:ui', 'tag'],
    ['tag=HAS:simple:ui', 'tag'],
    ['segment=IS:beta', 'segment'],
    ['archived=IS:maybe', 'archived'],
    ['favorite=IS:yes', 'favorite'],
    ['createdAt=IS_AFTER:2024-01-01', 'createdAt'],
    ['createdAt=IS_BEFORE:2024-13-45', 'createdAt'],
    ['createdBy=IS:abc', 'createdBy'],
    ['status=production:on', 'status'],
    ['sortOrder=up', 'sortOrder'],
    ['offset=-1', 'offset'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
    ['favoritesFirst=banana', 'favoritesFirst'],
  ])('answers 400 to %s', async (query, field) => {
    const res = await search(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details.some((d: { path?: string }) => d.path?.includes(field))).toBe(true);
  });
});
